/**
 * The text of json-schema-to-typescript's declarations (compiled with
 * `format: false`), split into top-level declarations and laid out like the
 * rest of the generated code. Its unformatted output has a fixed shape: one
 * member per line, a line break only after `{` or before `}`, JSDoc blocks of
 * ` * ` lines, and string literals written by JSON.stringify (never across
 * lines). So indentation follows the brackets still open at the start of each
 * line, a semicolon ends every member and every type alias, and a tuple union
 * (`[]|[A]`) gets spaces around its bars.
 */

const openers = '{([';
const closers = '})]';

/** One top-level declaration: its name and its full text, JSDoc included. */
export interface DeclarationText {
  readonly name: string;
  readonly text: string;
}

interface Scan {
  /** The line with `|` spaced; strings untouched. */
  readonly text: string;
  readonly opened: string[];
  readonly closed: number;
}

/** The brackets a code line opens and closes, outside string literals. */
function scanLine(line: string): Scan {
  let text = '';
  const opened: string[] = [];
  let closed = 0;
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const char = line.charAt(i);
    if (quote !== '') {
      text += char;
      if (char === '\\') text += line.charAt(++i);
      else if (char === quote) quote = '';
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    if (openers.includes(char)) opened.push(char);
    if (closers.includes(char)) {
      if (opened.length > 0) opened.pop();
      else closed++;
    }
    if (char === '|') {
      text = `${text.trimEnd()} | `;
      while (line.charAt(i + 1) === ' ') i++;
      continue;
    }
    text += char;
  }
  return { text, opened, closed };
}

/** Splits compiled declarations at the lines where a top-level declaration (or its JSDoc) starts. */
export function splitDeclarations(compiled: string): DeclarationText[] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let depth = 0;
  let inComment = false;
  for (const line of compiled.split('\n')) {
    const startsComment: boolean = !inComment && line.startsWith('/**');
    const startsDeclaration = depth === 0 && !inComment && (startsComment || line.startsWith('export '));
    if (startsDeclaration && current.some((l) => l.startsWith('export '))) {
      chunks.push(current);
      current = [];
    }
    current.push(line);
    if (startsComment || inComment) {
      inComment = line !== ' */' && !(startsComment && line.endsWith('*/') && line.length > 4);
      continue;
    }
    const { opened, closed } = scanLine(line);
    depth += opened.length - closed;
  }
  chunks.push(current);
  const declarations: DeclarationText[] = [];
  for (const chunk of chunks) {
    const head = chunk.find((l) => l.startsWith('export '));
    const name =
      head === undefined
        ? undefined
        : /^export (?:declare )?(?:const )?(?:interface|type|enum) ([\w$]+)/.exec(head)?.[1];
    if (name !== undefined) declarations.push({ name, text: chunk.join('\n').trim() });
  }
  return declarations;
}

/** One declaration laid out: two spaces per open bracket level, semicolons after members and type aliases. */
export function layoutDeclaration(text: string): string {
  const alias = /^export (?:declare )?type /m.test(text.replace(/\/\*\*[\s\S]*?\*\//g, ''));
  const open: number[] = [];
  const out: string[] = [];
  let inComment = false;
  for (const line of text.split('\n')) {
    const inner = open[open.length - 1];
    const base = inner === undefined ? 0 : inner + 2;
    const startsComment: boolean = !inComment && line.startsWith('/**');
    if (startsComment || inComment) {
      out.push(`${' '.repeat(base)}${line}`);
      inComment = line !== ' */' && !(startsComment && line.endsWith('*/') && line.length > 4);
      continue;
    }
    if (line === '') {
      out.push('');
      continue;
    }
    const indent = closers.includes(line.charAt(0)) && inner !== undefined ? inner : base;
    const scan = scanLine(line);
    for (let i = 0; i < scan.closed; i++) open.pop();
    for (let i = 0; i < scan.opened.length; i++) open.push(indent);
    const endsOpen = openers.includes(scan.text.trimEnd().slice(-1));
    // A member ends where a line ends inside an object type; a type alias where its last line ends.
    const semicolon = !endsOpen && (open.length === 0 ? alias : true);
    out.push(`${' '.repeat(indent)}${scan.text.trimEnd()}${semicolon ? ';' : ''}`);
  }
  return out.join('\n');
}
