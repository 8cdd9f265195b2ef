/**
 * What a spec's author says about its operations as MCP tools, in the two extensions peers' users write:
 * - `x-mcp` (openapi-mcp-generator's boolean, on the document, a path item or an operation, the nearest
 *   winning; on an operation also an object);
 * - `x-speakeasy-mcp` on an operation (Speakeasy's object).
 * Both objects take the same keys: Speakeasy's `{ disabled, name, title, description, scopes }` and the four
 * hints as keys of their own (`readOnlyHint: true`), and an `annotations` object with the hints.
 * Where both set a field, `x-mcp` wins. A value of the wrong type is a warning and is not used.
 */
import { isRecord, stringOr } from '../util/guards.js';

type Raw = Readonly<Record<string, unknown>>;

export const hintKeys = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
export type HintKey = (typeof hintKeys)[number];

/** The curation the extensions ask for; `excluded` names the extension that drops the operation. */
export interface SpecCuration {
  readonly excluded: string | null;
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly annotations: Partial<Record<HintKey, boolean>>;
  readonly scopes: readonly string[];
  readonly warnings: readonly string[];
}

const knownKeys = new Set(['disabled', 'name', 'title', 'description', 'scopes', 'annotations', ...hintKeys]);

/** The curation of one operation (`where` names it in warnings, e.g. `GET /pets`). */
export function specCuration(api: Raw, item: Raw, operation: Raw, where: string): SpecCuration {
  const warnings: string[] = [];
  const fields: { name?: string; title?: string; description?: string } = {};
  const annotations: Partial<Record<HintKey, boolean>> = {};
  let scopes: string[] = [];

  const speakeasy = operation['x-speakeasy-mcp'];
  if (speakeasy !== undefined) {
    if (!isRecord(speakeasy)) warnings.push(`${where}: x-speakeasy-mcp is not an object; ignored`);
    else read(speakeasy, 'x-speakeasy-mcp');
  }
  const own = operation['x-mcp'];
  if (isRecord(own)) read(own, 'x-mcp');
  else if (own !== undefined && typeof own !== 'boolean')
    warnings.push(`${where}: x-mcp is neither a boolean nor an object; ignored`);
  // The nearest word decides: the operation's x-mcp, its x-speakeasy-mcp, its path item's x-mcp, the document's.
  const levels: [unknown, string][] = [
    [
      typeof own === 'boolean' ? own : isRecord(own) ? negate(own.disabled) : undefined,
      isRecord(own) ? 'x-mcp: { disabled: true }' : 'x-mcp: false on the operation',
    ],
    [isRecord(speakeasy) ? negate(speakeasy.disabled) : undefined, 'x-speakeasy-mcp: { disabled: true }'],
    [item['x-mcp'], 'x-mcp: false on its path'],
    [api['x-mcp'], 'x-mcp: false on the document'],
  ];
  const decided = levels.find(([value]) => typeof value === 'boolean');
  const excluded = decided !== undefined && decided[0] === false ? decided[1] : null;
  return { excluded, ...fields, annotations, scopes, warnings };

  function read(ext: Raw, label: string) {
    for (const key of Object.keys(ext))
      if (!knownKeys.has(key)) warnings.push(`${where}: ${label}.${key} is not a key mcp-gen reads; ignored`);
    for (const key of ['name', 'title', 'description'] as const) {
      if (ext[key] === undefined) continue;
      const text = stringOr(ext[key])?.trim();
      if (text === undefined || text === '')
        warnings.push(`${where}: ${label}.${key} is not a non-empty string; ignored`);
      else fields[key] = text;
    }
    if (ext.disabled !== undefined && typeof ext.disabled !== 'boolean')
      warnings.push(`${where}: ${label}.disabled is not a boolean; ignored`);
    readHints(ext, label);
    if (ext.scopes !== undefined) {
      if (Array.isArray(ext.scopes) && ext.scopes.every((x) => typeof x === 'string'))
        scopes = [...new Set(ext.scopes as string[])];
      else warnings.push(`${where}: ${label}.scopes is not a list of strings; ignored`);
    }
    if (ext.annotations !== undefined) {
      if (isRecord(ext.annotations)) readHints(ext.annotations, `${label}.annotations`);
      else warnings.push(`${where}: ${label}.annotations is not an object; ignored`);
    }
  }

  function readHints(from: Raw, label: string) {
    for (const key of hintKeys) {
      if (from[key] === undefined) continue;
      if (typeof from[key] === 'boolean') annotations[key] = from[key];
      else warnings.push(`${where}: ${label}.${key} is not a boolean; ignored`);
    }
    if (!label.endsWith('.annotations')) return;
    // MCP's annotations carry a title too: the tool's title, unless the extension names one itself.
    const title = stringOr(from.title)?.trim();
    if (title !== undefined && title !== '' && fields.title === undefined) fields.title = title;
    for (const key of Object.keys(from))
      if (key !== 'title' && !(hintKeys as readonly string[]).includes(key))
        warnings.push(`${where}: ${label}.${key} is not a hint mcp-gen reads; ignored`);
  }
}

/** `disabled: true` as "include: false"; anything but a boolean decides nothing. */
function negate(disabled: unknown): boolean | undefined {
  return typeof disabled === 'boolean' ? !disabled : undefined;
}
