/**
 * Markdown for DESIGN.md and the generated README. Every title, description and message in them comes from
 * a manifest, and with `import server` or `import openapi` from someone else, so it is text, never markup: it
 * cannot open HTML, a heading, a list, a blockquote, a table row, a link or a code span. No installed package
 * escapes Markdown (Handlebars escapes HTML only, which does not stop `# ` or `[x](y)`), so this is a small
 * escaper of its own. It escapes only where CommonMark and GitHub would read markup (CommonMark 0.31, GFM
 * 0.29), so ordinary prose reads unchanged: `.`, `(` and `!` stay as written, `_` inside a word stays.
 */

/** A line break of any kind; Markdown reads each as the end of a line. */
const lineBreak = /\r\n|[\r\n\u2028\u2029]/g;
const asciiPunctuation = /[!-/:-@[-`{-~]/;
const wordCharacter = /[\p{L}\p{N}]/u;

/**
 * Escapes one line of text; its first character is where a block could start. `pipes: false` leaves `|` to
 * `table`, which escapes every pipe of a cell once (an escaped one would be escaped twice).
 */
function escapeLine(line: string, pipes: boolean): string {
  const text = line.trimStart(); // four spaces would start a code block, and Markdown drops indentation anyway
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] ?? '';
    const next = text[i + 1] ?? '';
    if (char === '\\') out += next === '' || asciiPunctuation.test(next) ? '\\\\' : '\\';
    else if (char === '<') out += '&lt;';
    else if (char === '&') out += /^&#?[A-Za-z0-9]+;/.test(text.slice(i, i + 34)) ? '&amp;' : '&';
    else if (char === '|') out += pipes ? '\\|' : '|';
    else if ('`*~[]'.includes(char)) out += `\\${char}`;
    // `_` inside a word never opens emphasis (`search_notes`); at a word's edge it can.
    else if (char === '_') out += wordCharacter.test(text[i - 1] ?? '') && wordCharacter.test(next) ? '_' : '\\_';
    else out += char;
  }
  return (
    out
      // At the start of a line: a heading, blockquote, list item, thematic break or setext underline.
      .replace(/^[#>+=-]/, '\\$&')
      // An ordered list item: `1. ` or `1) `.
      .replace(/^(\d{1,9})([.)])(?=\s|$)/, '$1\\$2')
      // A heading's closing `#`s would be dropped: `Title #` shows as `Title`.
      .replace(/(\s)#(#*\s*)$/, '$1\\#$2')
  );
}

/** Text on one line, inside a sentence, heading or list item: line breaks become spaces. */
export function inline(text: string): string {
  return escapeLine(text.replace(lineBreak, ' '), true).trimEnd();
}

/**
 * Text as paragraphs (a README's description): line breaks and blank lines kept, every line escaped as the
 * start of a block, indentation dropped (it would make a code block).
 */
export function paragraphs(text: string): string {
  return text
    .split(lineBreak)
    .map((line) => escapeLine(line, true).trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Text for one table cell (`table` escapes its pipes); nothing shows as a dash. */
export function cell(text: string | null | undefined): string {
  if (text === null || text === undefined || text.trim() === '') return '—';
  return escapeLine(text.replace(lineBreak, ' '), false).trimEnd();
}

/** The longest run of backticks in `text`. */
function longestBacktickRun(text: string): number {
  return Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
}

/**
 * Inline code that survives backticks in the text (CommonMark: a longer fence). Line breaks become spaces, as
 * a code span shows them, so that no line of it can start a block.
 */
export function code(text: string): string {
  const flat = text.replace(lineBreak, ' ');
  const fence = '`'.repeat(longestBacktickRun(flat) + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** A code fence longer than any backtick run in `texts`, and at least three: no line of them can close it. */
export function fenceFor(...texts: readonly string[]): string {
  return '`'.repeat(Math.max(3, ...texts.map((t) => longestBacktickRun(t) + 1)));
}

/** A fenced code block whose fence is longer than any backtick run inside. */
export function block(language: string, text: string): string {
  const fence = fenceFor(text);
  return `${fence}${language}\n${text.replace(/\n$/, '')}\n${fence}`;
}

/**
 * A Markdown table from a header and rows of already formatted cells. Every `|` in a cell is escaped here, in
 * code spans too (GFM removes one backslash before each pipe of a cell before it reads the cell), and line
 * breaks become spaces: a cell cannot end its row.
 */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const safe = (text: string) => text.replace(lineBreak, ' ').replace(/\|/g, '\\|');
  const line = (cells: readonly string[]) => `| ${cells.map(safe).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The first sentence of a description, for a one-line summary. */
export function firstSentence(text: string | null): string | null {
  if (text === null) return null;
  const match = /^(.+?[.!?])(\s|$)/s.exec(text.trim());
  return (match?.[1] ?? text).trim();
}
