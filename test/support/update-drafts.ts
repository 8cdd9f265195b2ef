import { copyAsJson, type Draft, renderDraft } from '../../src/import/draft.js';
import { draftFromOpenApi } from '../../src/import/from-openapi.js';
import { updateManifest } from '../../src/import/update.js';
import { petSpecV1, petSpecV2 } from './pet-specs.js';

// The pet API's drafts for `import openapi --update` tests, and the edits a user makes to a drafted manifest.

/** `text` with `from` replaced by `to`, failing when `from` is not in it (so an edit never silently misses). */
export function edit(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`not in the manifest: ${from}`);
  return text.replace(from, to);
}

/** The tool `name`'s block of the rendered draft, from its comment line to the next tool's. */
export function block(text: string, name: string): string {
  const start = text.indexOf(`  ${name}:\n`);
  const end = text.indexOf('\n  # ', start);
  return text.slice(start, end === -1 ? undefined : end + 1);
}

export const v1 = draftFromOpenApi(petSpecV1(), 'pets.json');
export const v2 = draftFromOpenApi(petSpecV2(), 'pets.json');
export const drafted = renderDraft(v1);

export type Paths = Record<string, Record<string, Record<string, unknown>>>;

/** The draft of v1 with `change` made to its paths. */
export function changed(change: (paths: Paths) => void): Draft {
  const spec = petSpecV1();
  change(spec.paths as Paths);
  const draft = draftFromOpenApi(spec, 'pets.json');
  return { ...draft, data: copyAsJson(draft.data) as Record<string, unknown> };
}

/** `--update` of the user's text of v1's draft, the spec's draft now being `next`, with no handler written. */
export const merge = (user: string, next: Draft) =>
  updateManifest(user, 'mcp.yaml', copyAsJson(v1.data) as Record<string, unknown>, next, () => false);

/** v1's operation at `path` and `method`, to change. */
export function operation(paths: Paths, path: string, method: string): Record<string, unknown> {
  const found = paths[path]?.[method];
  if (found === undefined) throw new Error(`no ${method} ${path}`);
  return found;
}
