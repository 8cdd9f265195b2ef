/**
 * The project's README.md. It is the user's file, but most of what a new one says are facts of the manifest
 * and of mcp-gen: the transports, the port and path, the configuration variables, the host snippets, the
 * commands. Those live in one marked part, `<!-- mcp-gen:begin ... -->` to `<!-- mcp-gen:end -->`, which every
 * run rewrites; every byte outside it is the user's and stays as it is (the convention of tools that keep a
 * generated table inside a hand-written README). The begin marker records the digest of what mcp-gen last
 * wrote there, so an edit made inside the part is noticed and kept, with a warning, instead of overwritten.
 * A README without the markers is left alone: the user took the whole file over (or it predates them).
 */
import type { Finding } from '../../diagnostics/index.js';
import { scaffoldPaths } from '../../model/layout.js';
import { hashText } from '../../util/hash.js';
import type { GeneratedFile } from '../shared/files.js';

export const readmeEnd = '<!-- mcp-gen:end -->';
const beginPrefix = '<!-- mcp-gen:begin';
const digestPattern = /\bsha256=([0-9a-f]{16})\b/;

/** The digest the begin marker records: of the part's lines, line endings as LF. */
function digestOf(part: string): string {
  return hashText(part.replace(/\r\n/g, '\n')).slice(0, 16);
}

/** The begin marker for `part`: says what the part is, for whoever opens the file, and what it held. */
function beginLine(part: string): string {
  return (
    `${beginPrefix} sha256=${digestOf(part)}: written by mcp-gen from the manifest; ` +
    '`npm run generate` rewrites everything up to mcp-gen:end. Keep your own text outside these two lines. -->'
  );
}

/** The generated part with its markers; `part` ends with a newline. */
export function markedPart(part: string): string {
  return `${beginLine(part)}\n${part}${readmeEnd}\n`;
}

/** Where the part sits in `text`: the begin line, the part between the lines, the end line; or why not. */
function findPart(
  text: string,
):
  | { readonly beginAt: number; readonly partAt: number; readonly endAt: number; readonly afterEnd: number }
  | { readonly broken: string }
  | null {
  // Each line with its offset and the offset after its `\n`; a trailing `\r` counts as part of the line ending.
  const lines: { readonly text: string; readonly at: number; readonly next: number }[] = [];
  for (let at = 0; at < text.length; ) {
    const newline = text.indexOf('\n', at);
    const next = newline < 0 ? text.length : newline + 1;
    lines.push({ text: text.slice(at, newline < 0 ? text.length : newline).replace(/\r$/, ''), at, next });
    at = next;
  }
  const begins = lines.filter((l) => l.text.startsWith(beginPrefix) && l.text.endsWith('-->'));
  const ends = lines.filter((l) => l.text === readmeEnd);
  if (begins.length === 0 && ends.length === 0) return null;
  const [begin] = begins;
  const [end] = ends;
  if (begins.length !== 1 || ends.length !== 1 || begin === undefined || end === undefined)
    return { broken: `it has ${begins.length} mcp-gen:begin and ${ends.length} mcp-gen:end line(s), not one of each` };
  if (end.at < begin.at) return { broken: 'its mcp-gen:end line comes before its mcp-gen:begin line' };
  return { beginAt: begin.at, partAt: begin.next, endAt: end.at, afterEnd: end.next };
}

/** The 1-based line of offset `at` in `text`. */
const lineAt = (text: string, at: number) => text.slice(0, at).split('\n').length;

/**
 * README.md as this run leaves it: the whole file when there is none; otherwise the user's file with its part
 * rewritten (`user-edit`), or kept as it is when the part is already current, missing, broken or edited (the
 * last two with a finding that says how to have it written again).
 */
export function emitReadme(
  whole: string,
  part: string,
  existing: string | null,
): { readonly file: GeneratedFile; readonly findings: readonly Finding[] } {
  const path = scaffoldPaths.readme;
  const kept = { file: { path, contents: whole, ownership: 'scaffold' as const }, findings: [] };
  if (existing === null) return kept;
  const found = findPart(existing);
  if (found === null) return kept;
  if ('broken' in found) {
    return {
      ...kept,
      findings: [
        {
          code: 'readme-part-broken',
          message: `${path} is kept as it is: ${found.broken}`,
          hint:
            `put back one "${beginPrefix} -->" line and one "${readmeEnd}" line after it, ` +
            'or delete both to own the whole file',
          at: { projectFile: path, line: 1, col: 1 },
        },
      ],
    };
  }
  const beginText = existing.slice(found.beginAt, found.partAt);
  const current = existing.slice(found.partAt, found.endAt);
  const recorded = digestPattern.exec(beginText)?.[1];
  // An empty part (the two lines alone, e.g. added by hand to an older README) is filled in.
  if (current.trim() !== '' && recorded !== digestOf(current)) {
    return {
      ...kept,
      findings: [
        {
          code: 'readme-part-edited',
          message:
            `${path}: the part between the mcp-gen lines was edited, ` +
            'so it is kept and no longer follows the manifest',
          hint:
            'move your text outside the mcp-gen:begin and mcp-gen:end lines, then delete the lines between them ' +
            '(keep those two): the next run writes the part again',
          at: { projectFile: path, line: lineAt(existing, found.beginAt), col: 1 },
        },
      ],
    };
  }
  // A README whose lines end in CRLF (a Windows checkout) gets the part with CRLF too.
  const crlf = beginText.endsWith('\r\n');
  const marked = markedPart(part);
  const replacement = crlf ? marked.replace(/\n/g, '\r\n') : marked;
  const contents = `${existing.slice(0, found.beginAt)}${replacement}${existing.slice(found.afterEnd)}`;
  if (contents === existing) return kept;
  return { file: { path, contents, ownership: 'user-edit' }, findings: [] };
}
