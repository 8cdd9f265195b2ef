/**
 * Zero-width characters in a document's prose (fec.gov, keycloak.local and snyk.io write U+200B into titles and
 * descriptions): they hide text from a reviewer, so the review refuses them (review/unsafe-text.ts), and nobody can
 * see where they are to remove them. The draft's titles and descriptions are written without them, each place
 * said; the text a reviewer sees is unchanged. Data (enum values, defaults, examples) is the API's and stays as is.
 */
import { zeroWidth } from '../model/hidden-text.js';
import { isRecord } from '../util/guards.js';
import { quote } from './names.js';

/** Every zero-width character of a text, as the review means them. */
const everyZeroWidth = new RegExp(zeroWidth.source, 'gu');
/** Keys whose value is data, not prose or schemas. */
const dataKeys = new Set(['enum', 'const', 'default', 'examples', 'example']);

/** Removes zero-width characters from the draft's prose, and says where in `warnings`. */
export function removeZeroWidth(data: Record<string, unknown>, warnings: string[]): void {
  const clean = (owner: string, value: unknown) => {
    const removed = cleanProse(value);
    if (removed > 0)
      warnings.push(`${owner}: ${removed} zero-width character${removed === 1 ? '' : 's'} removed from its text`);
  };
  clean('server', data.server);
  for (const section of ['toolsets', 'tools', 'schemas'] as const) {
    const entries = data[section];
    if (!isRecord(entries)) continue;
    const noun = section === 'schemas' ? 'shared schema' : section.slice(0, -1);
    for (const [name, entry] of Object.entries(entries)) clean(`${noun} ${quote(name)}`, entry);
  }
}

/** Cleans every `title` and `description` string in `value` (schemas included, data excluded); how many it removed. */
function cleanProse(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, item) => n + cleanProse(item), 0);
  if (!isRecord(value)) return 0;
  let removed = 0;
  for (const [key, item] of Object.entries(value)) {
    if (dataKeys.has(key)) continue;
    if ((key === 'title' || key === 'description') && typeof item === 'string') {
      const visible = item.replace(everyZeroWidth, '');
      removed += item.length - visible.length;
      if (visible !== item) value[key] = visible;
    } else removed += cleanProse(item);
  }
  return removed;
}
