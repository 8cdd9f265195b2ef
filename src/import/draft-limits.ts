/**
 * A draft no manifest can hold (model/limits.ts): more tools than a server may declare, or more bytes than load
 * reads. Such a draft would be written and then refused by every command after it, so the import stops before
 * writing and says how to choose a part of the API: by tag, with the largest tags counted.
 */
import { manifestLimits } from '../model/limits.js';
import { compareText } from '../util/compare.js';
import { isRecord } from '../util/guards.js';
import type { Draft } from './draft.js';
import { ImportError } from './import-error.js';

/** How many of the largest tags the hint names. */
const namedTags = 5;

/** Throws `import-too-large` when `draft` (rendered as `text`) is past a manifest's limits. */
export function refuseOversizedDraft(draft: Draft, text: string): void {
  const tools = isRecord(draft.data.tools) ? Object.values(draft.data.tools) : [];
  const bytes = Buffer.byteLength(text);
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  const over =
    tools.length > manifestLimits.tools
      ? `${tools.length} tools, more than the ${manifestLimits.tools} a manifest may declare`
      : bytes > manifestLimits.bytes
        ? `${mib(bytes)}, more than the ${mib(manifestLimits.bytes)} a manifest may be`
        : null;
  if (over === null) return;
  const largest = [...(draft.operationTags ?? [])]
    .sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))
    .slice(0, namedTags)
    .map(([tag, n]) => `--include ${JSON.stringify(`tag:${tag}`)} (${n} tools)`);
  throw new ImportError({
    code: 'import-too-large',
    message: `the draft would be ${over}; nothing was written`,
    hint:
      'import a part of the API with --include or --exclude (tag:, path:, op:, method:)' +
      (largest.length === 0 ? '' : `; its largest tags: ${largest.join(', ')}`) +
      '; docs/manifest.md#limits lists every limit',
  });
}
