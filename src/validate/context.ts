import { makeDiagnostic, type Diagnostic, type DiagnosticCode } from '../diagnostics/index.js';
import type { Manifest } from '../model/manifest.gen.js';
import { formatPointer } from '../util/json-pointer.js';
import { type Memo, noMemo } from '../util/memo.js';

/** What a rule needs from the loaded manifest: its data and a way to point into its text. */
export interface ManifestSource {
  readonly file: string;
  readonly data: unknown;
  readonly locate: (pointer: string, target?: 'key' | 'value') => { line: number; col: number };
}

/** Collects diagnostics for one validation run; rules only call `report`. */
export class RuleContext {
  readonly diagnostics: Diagnostic[] = [];
  /** The data, typed, once the shape check has passed; the other rules still read `data` defensively. */
  manifest: Manifest | null = null;

  /**
   * What a rule found before for the same object (util/memo.ts): only for a verdict on a piece of the data alone,
   * never for where it is reported, which moves with every edit above it.
   */
  constructor(
    readonly source: ManifestSource,
    readonly memo: Memo = noMemo,
  ) {}

  get data(): unknown {
    return this.source.data;
  }

  /** Records a problem at the node named by `path`; `target: 'key'` points at a mapping key instead of its value. */
  report(
    code: DiagnosticCode,
    path: readonly (string | number)[],
    message: string,
    hint?: string,
    target: 'key' | 'value' = 'value',
  ): void {
    const pointer = formatPointer(path);
    const { line, col } = this.source.locate(pointer, target);
    this.diagnostics.push(makeDiagnostic(code, { file: this.source.file, pointer, line, col }, message, hint));
  }
}

/** `/tools/search_notes/input` -> `tools.search_notes.input`; list items as `[0]`. */
export function dottedPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number' || /^(0|[1-9]\d*)$/.test(segment)) out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out === '' ? 'the manifest' : out;
}

/** How a value is named in a message: `number 42`, `string "x"`, `a list`, `null`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`;
  return `${typeof value} ${String(value)}`;
}
