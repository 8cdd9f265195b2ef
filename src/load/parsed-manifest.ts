/**
 * The parse cache: a manifest's data as parsing its text gave it, kept with the hash of that text beside the
 * run record (`parsedManifestPath`). Parsing GitHub's 4.6 MB draft with the `yaml` library took two seconds
 * and most of generate's memory; the same text, already parsed by `import` or by the previous run, reads back
 * from JSON in a few milliseconds. Only a parse without any error or warning is kept (write/run-record.ts),
 * so a hit is a manifest that parsed cleanly; its positions come from `createEntryLocator`, which parses only
 * the entries a diagnostic names, and always answers what parsing the whole text answers. Like the run record,
 * this is a cache: whatever it cannot read, it ignores.
 */
import { parsedManifestPath } from '../model/layout.js';
import { hashTextOnce } from '../util/hash.js';
import { loadCacheFile, loadToolIdentity } from './run-record.js';

/** What the cache file holds. */
export interface ParsedManifest {
  readonly format: 1;
  /** mcp-gen's identity (`loadToolIdentity`): another build of mcp-gen may parse differently. */
  readonly identity: string;
  /** The hash of the manifest text that parsed to `data`. */
  readonly hash: string;
  readonly data: unknown;
}

/** The data `text` (the manifest at `absolutePath`) parsed to before, or undefined when the cache has none. */
export function loadParsedManifest(absolutePath: string, text: string): unknown {
  const file = parsedManifestPath(absolutePath);
  const saved = loadCacheFile(file);
  if (saved === null) return undefined;
  try {
    const parsed = JSON.parse(saved) as Partial<ParsedManifest>;
    if (parsed.format !== 1 || parsed.identity !== loadToolIdentity() || !('data' in parsed)) return undefined;
    return parsed.hash === hashTextOnce(text) ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
