import { createHash } from 'node:crypto';

/**
 * A file's text: one string, or the parts whose concatenation it is. A large generated file (a big API's registry
 * and design report) stays in parts from emit to disk: joined, each would be a string of tens of megabytes (two
 * bytes a character as soon as one character is outside Latin-1), held whole beside its parts at the run's peak.
 */
export type FileText = string | readonly string[];

/** The parts of `text`: itself alone when it is one string. */
export function partsOf(text: FileText): readonly string[] {
  return typeof text === 'string' ? [text] : text;
}

/** `text` as one string. */
export function joinText(text: FileText): string {
  return typeof text === 'string' ? text : text.join('');
}

/** Whether `current` is exactly `text`, compared part by part without joining the parts. */
export function sameText(current: string, text: FileText): boolean {
  if (typeof text === 'string') return current === text;
  let at = 0;
  for (const part of text) {
    if (!current.startsWith(part, at)) return false;
    at += part.length;
  }
  return at === current.length;
}

/**
 * Whether two file texts are the same text, compared part by part without joining: equal parts at equal places
 * (a warm run's parts are mostly the very strings of the run before) are passed whole.
 */
export function sameFileText(known: FileText, text: FileText): boolean {
  if (typeof known === 'string') return sameText(known, text);
  if (typeof text === 'string') return sameText(text, known);
  // Two cursors, one in each list of parts; unequal parts are compared up to the nearer end of the two.
  let i = 0;
  let j = 0;
  let at = 0;
  let bt = 0;
  for (;;) {
    while (i < known.length && at === (known[i] as string).length) [i, at] = [i + 1, 0];
    while (j < text.length && bt === (text[j] as string).length) [j, bt] = [j + 1, 0];
    if (i === known.length || j === text.length) return i === known.length && j === text.length;
    const a = known[i] as string;
    const b = text[j] as string;
    if (at === 0 && bt === 0 && a === b) {
      [i, j] = [i + 1, j + 1];
      continue;
    }
    const length = Math.min(a.length - at, b.length - bt);
    if (!a.startsWith(b.slice(bt, bt + length), at)) return false;
    at += length;
    bt += length;
  }
}

/** The SHA-256 of `text` (UTF-8), in hex: `hashText` of the joined text, computed part by part. */
export function hashFileText(text: FileText): string {
  const hash = createHash('sha256');
  for (const part of partsOf(text)) hash.update(part);
  return hash.digest('hex');
}

/**
 * Each run of three or more line breaks shortened to two, across the parts as in their join: what
 * `join('').replace(/\n{3,}/g, '\n\n')` gives, in parts.
 */
export function collapseBlankLines(parts: readonly string[]): string[] {
  const out: string[] = [];
  // Line breaks that ended the text so far (within a run, counted across parts).
  let trailing = 0;
  for (const part of parts) {
    let text = part.replace(/\n{3,}/g, '\n\n');
    const leading = text.length - text.replace(/^\n+/, '').length;
    if (trailing > 0 && leading > 0) text = text.slice(Math.min(leading, Math.max(0, leading - (2 - trailing))));
    if (text.length === 0) continue;
    const rest = text.replace(/\n+$/, '');
    const ends = text.length - rest.length;
    trailing = rest.length === 0 ? Math.min(2, trailing + ends) : Math.min(2, ends);
    out.push(text);
  }
  return out;
}

/** `finalText` over parts: CRLF as LF, trailing white space trimmed, exactly one final line break. */
export function finalParts(parts: readonly string[]): string[] {
  const out = parts.filter((part) => part.length > 0);
  // A CR ending one part before the LF that starts the next is a CRLF of the join (found before either changes).
  for (let i = 0; i + 1 < out.length; i++)
    if (out[i]?.endsWith('\r') && out[i + 1]?.startsWith('\n')) out[i] = (out[i] ?? '').slice(0, -1);
  for (const [i, part] of out.entries()) out[i] = part.replace(/\r\n/g, '\n');
  while (out.length > 0) {
    const last = (out[out.length - 1] ?? '').trimEnd();
    if (last.length > 0) {
      out[out.length - 1] = last;
      break;
    }
    out.pop();
  }
  out.push('\n');
  return out;
}
