/**
 * The names a runtime module exports, read from its template text, so that the facade re-exports what
 * the module itself declares instead of a copied list. A tiny parse, not the compiler: the runtime's
 * templates declare exports in a few fixed forms (`export class X`, `export type X`, `export { a, b } from`),
 * and loading TypeScript would cost every run more than all of emit. An export whose doc comment says
 * `@internal` is the runtime's own and stays out.
 */
import { compareText } from '../../util/compare.js';

/** A module's exported names, split into values and types, each list in the facade's order. */
export interface ModuleExports {
  readonly values: readonly string[];
  readonly types: readonly string[];
}

const declaration = /^export\s+(?:async\s+)?(class|function|const|let|enum|interface|type)\s+([A-Za-z_$][\w$]*)/;
const list = /^export\s+(type\s+)?\{([^}]*)\}/;

/** Case-insensitive name order, byte order between names that differ only in case (`SdkResult`, `sdkResult`). */
function facadeOrder(a: string, b: string): number {
  return compareText(a.toLowerCase(), b.toLowerCase()) || compareText(a, b);
}

/** The exports of `text`, a runtime template, without those documented `@internal`. */
export function moduleExports(text: string): ModuleExports {
  const values: string[] = [];
  const types: string[] = [];
  let doc = '';
  let inDoc = false;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('/**')) {
      inDoc = true;
      doc = '';
    }
    if (inDoc) {
      doc += `${trimmed}\n`;
      if (trimmed.endsWith('*/')) inDoc = false;
      continue;
    }
    const internal = doc.includes('@internal');
    if (trimmed !== '') doc = '';
    if (internal || !line.startsWith('export')) continue;
    const declared = declaration.exec(line);
    if (declared !== null) {
      (declared[1] === 'interface' || declared[1] === 'type' ? types : values).push(declared[2] ?? '');
      continue;
    }
    const listed = list.exec(line);
    // A form this parse does not know would silently drop names from the facade: fail the run instead (exit 2).
    if (listed === null) throw new Error(`cannot read the export "${trimmed}" of a runtime template`);
    for (const item of (listed[2] ?? '').split(',')) {
      const [name, alias] = item.trim().split(/\s+as\s+/);
      const typeOnly = listed[1] !== undefined || name?.startsWith('type ') === true;
      const exported = (alias ?? name ?? '').replace(/^type\s+/, '');
      if (exported !== '') (typeOnly ? types : values).push(exported);
    }
  }
  return { values: values.sort(facadeOrder), types: types.sort(facadeOrder) };
}
