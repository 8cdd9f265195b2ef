/**
 * One YAML mistake, one error. A tab, a missing colon, an unclosed bracket or a key indented one space too far
 * makes the parser report a cascade of errors after it, each true of the text it misread and none of them
 * helpful. The first syntax error is the one to fix: it is reported alone, pointed at the place to fix when
 * that is not where the parser stopped, with a hint for the usual causes, and the rest is a count.
 */
import { Parser, type YAMLError } from 'yaml';
import { makeDiagnostic, type Diagnostic, type Location } from '../diagnostics/index.js';
import { lowerFirst } from '../util/lower-first.js';

type At = (offset: number) => Location;

/** A cause the hint names, and where the text to fix starts when the parser reported another place. */
interface Cause {
  readonly offset?: number;
  readonly message?: string;
  readonly hint: string;
}

const indentationHint =
  'indent the keys of one mapping by the same number of spaces, and the keys inside a key deeper than it';

/** The line of `source` that holds `offset`, with the offset it starts at. */
function lineAt(source: string, offset: number): { readonly text: string; readonly start: number } {
  const start = source.lastIndexOf('\n', offset - 1) + 1;
  const end = source.indexOf('\n', offset);
  return { text: source.slice(start, end < 0 ? source.length : end).replace(/\r$/, ''), start };
}

/** The line after the one holding `offset` that is neither blank nor a comment, or null. */
function nextContentLine(source: string, offset: number): { readonly text: string; readonly start: number } | null {
  for (let end = source.indexOf('\n', offset); end >= 0; end = source.indexOf('\n', end + 1)) {
    const line = lineAt(source, end + 1);
    if (line.text.trim() !== '' && !line.text.trimStart().startsWith('#')) return line;
    if (end + 1 >= source.length) break;
  }
  return null;
}

const indentOf = (text: string) => text.length - text.trimStart().length;

/** A line that starts with a bare word and has no colon: a key whose colon is missing. */
function missingColon(line: string): Cause | null {
  const text = line.replace(/\s#.*$/, '');
  const match = /^(\s*)([A-Za-z_$][\w$.-]*)(\s+(\S.*))?$/.exec(text);
  if (match === null || text.includes(':')) return null;
  const [, , key = '', , value] = match;
  const fixed = value === undefined ? `${key}:` : `${key}: ${value.trimEnd()}`;
  return { message: `"${key}" has no colon after it, so YAML cannot read it as a key`, hint: `write "${fixed}"` };
}

/** The innermost `[` or `{` opened before `end` that is never closed, from the parser's token tree. */
function unclosedFlow(source: string, end: number): { readonly offset: number; readonly open: string } | null {
  let found: { offset: number; open: string } | null = null;
  const walk = (token: unknown): void => {
    if (token === null || typeof token !== 'object') return;
    const t = token as { type?: unknown; start?: { offset?: unknown; source?: unknown }; end?: unknown };
    if (t.type === 'flow-collection' && typeof t.start?.offset === 'number' && typeof t.start.source === 'string') {
      const close = t.start.source === '[' ? ']' : '}';
      const closed = Array.isArray(t.end) && t.end.some((e: { source?: unknown }) => e.source === close);
      if (!closed && t.start.offset <= end && (found === null || t.start.offset > found.offset))
        found = { offset: t.start.offset, open: t.start.source };
    }
    for (const value of Object.values(token)) walk(value);
  };
  for (const token of new Parser().parse(source)) walk(token);
  return found;
}

/** Why the parser stopped at `error`, as far as the text shows one of the usual causes. */
function causeOf(source: string, error: YAMLError): Cause | null {
  const offset = error.pos[0];
  if (error.code === 'TAB_AS_INDENT')
    return { hint: 'indent with spaces: YAML does not allow tabs there (set the editor to insert spaces)' };
  if (/^flow (sequence|map)|^expected flow/i.test(error.message)) {
    const flow = unclosedFlow(source, offset);
    if (flow !== null) {
      const close = flow.open === '[' ? ']' : '}';
      return {
        offset: flow.offset,
        message: `the "${flow.open}" that opens here is never closed`,
        hint:
          `close it with "${close}" on the same line, or write ${flow.open === '[' ? 'the items' : 'the keys'} ` +
          `as block lines (${flow.open === '[' ? '"- item"' : '"key: value"'}, one a line)`,
      };
    }
  }
  const line = lineAt(source, offset);
  const colon = missingColon(line.text);
  if (colon !== null) return { offset: line.start + indentOf(line.text), ...colon };
  if (error.code === 'BLOCK_AS_IMPLICIT_KEY' || error.code === 'MULTILINE_IMPLICIT_KEY') {
    // `name: demo` followed by a key indented deeper: YAML reads the next line as more of the value `demo`.
    const key = /^(\s*)([^\s:#][^:]*):\s+\S/.exec(line.text);
    const next = nextContentLine(source, offset);
    if (
      key !== null &&
      next !== null &&
      indentOf(next.text) > indentOf(line.text) &&
      /^\s*[^\s:#][^:]*:/.test(next.text)
    )
      return {
        offset: next.start + indentOf(next.text),
        message: `this key is indented deeper than "${key[2]?.trim()}" above it, which already has a value`,
        hint: indentationHint,
      };
  }
  if (error.code === 'BAD_INDENT' || /indent|same column|compact mapping/i.test(error.message))
    return { offset: line.start + indentOf(line.text), hint: indentationHint };
  return null;
}

/**
 * The diagnostics of a document that did not parse cleanly. `errors` are the parser's errors and warnings and
 * `diagnostics` their diagnostics, one for one. Duplicate keys before the first syntax error are each reported;
 * from the first syntax error on, only it is, with the number of parser errors after it.
 */
export function foldSyntaxErrors(
  source: string,
  errors: readonly YAMLError[],
  diagnostics: readonly Diagnostic[],
  at: At,
): Diagnostic[] {
  const order = errors.map((error, index) => ({ error, index })).sort((a, b) => a.error.pos[0] - b.error.pos[0]);
  const first = order.findIndex(({ error }) => error.code !== 'DUPLICATE_KEY');
  if (first < 0) return [...diagnostics];
  const before = order.slice(0, first).map(({ index }) => diagnostics[index] as Diagnostic);
  const { error, index } = order[first] as { error: YAMLError; index: number };
  const reported = diagnostics[index] as Diagnostic;
  const cause = reported.hint === undefined ? causeOf(source, error) : null;
  const after = order.length - first - 1;
  const message = cause?.message ?? (reported.hint === undefined ? lowerFirst(error.message) : reported.message);
  // After a parser that ran out of stack (manifest-too-deep), how many errors followed depends on the stack: no count.
  const counted =
    after === 0 || reported.code !== 'yaml-syntax'
      ? ''
      : ` (and ${after} more parser error${after === 1 ? '' : 's'} after it)`;
  const hint =
    cause?.hint ?? reported.hint ?? 'check this line and the one above: indentation, a ":" after each key, quotes';
  const place = cause?.offset === undefined ? reported : at(cause.offset);
  const location = { file: place.file, pointer: place.pointer, line: place.line, col: place.col };
  return [...before, makeDiagnostic(reported.code, location, `${message}${counted}`, hint)];
}

/**
 * The start of the top-level entry that holds `offset`: where the parser ran out of stack depends on the stack, the
 * entry it was reading does not.
 */
export function topLevelLineAt(source: string, offset: number): number {
  const lines = [...source.slice(0, offset).matchAll(/^[^\s#]/gm)];
  return lines.at(-1)?.index ?? 0;
}

/** The message and hint of a YAML error: the library's words for the common ones, in the manifest's terms. */
export function syntaxWords(code: string, message: string): [string, string?] {
  if (code === 'MULTIPLE_DOCS')
    return ['the file holds more than one YAML document', 'keep one: remove the "---" line and what follows it'];
  if (code === 'TAG_RESOLVE_FAILED')
    return [lowerFirst(message), 'remove the tag: a manifest holds plain YAML values (strings, numbers, lists, maps)'];
  // Without a hint here, foldSyntaxErrors looks for the cause (yaml-errors.ts).
  return [lowerFirst(message)];
}

/**
 * A quoted string that never closes runs to the end of the file, where yaml
 * reports it; the place to fix is where it opens, so point there.
 */
export function unclosedQuote(
  source: string,
  end: number,
  at: (offset: number) => { file: string; pointer: string; line: number; col: number },
): Diagnostic {
  let open: { offset: number; quote: string } | null = null;
  const walk = (token: unknown): void => {
    if (token === null || typeof token !== 'object') return;
    const t = token as { type?: unknown; offset?: unknown; source?: unknown };
    if (
      (t.type === 'double-quoted-scalar' || t.type === 'single-quoted-scalar') &&
      typeof t.offset === 'number' &&
      typeof t.source === 'string' &&
      t.offset <= end
    ) {
      if (open === null || t.offset > open.offset) open = { offset: t.offset, quote: t.source.charAt(0) };
    }
    for (const value of Object.values(token)) walk(value);
  };
  for (const token of new Parser().parse(source)) walk(token);
  const found = open as { offset: number; quote: string } | null;
  if (found === null)
    return makeDiagnostic('yaml-syntax', at(end), 'missing closing quote', 'close each quoted string on its line');
  return makeDiagnostic(
    'yaml-syntax',
    at(found.offset),
    `missing closing quote: the string that opens here with ${found.quote} runs to the end of the file`,
    `end the string with ${found.quote} on the line where it should stop`,
  );
}
