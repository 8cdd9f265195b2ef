/**
 * A manifest's text from its bytes, reusing the text of the bytes decoded before: after a save that changed one
 * tool, only the lines around the edit are decoded again. Decoding a large manifest whole is one of the larger
 * costs of a warm run (UTF-8 outside ASCII decodes at tens of milliseconds per five megabytes), while comparing
 * bytes costs little. The text is exactly what decoding the bytes whole gives: the reused head and tail end and
 * start at a line break, so no character is split.
 */
import type { TextMemo } from '../load/index.js';

/** The bytes and text decoded last, and marks: byte offsets just after a line break with their text offsets. */
interface Decoded {
  readonly bytes: Buffer;
  readonly text: string;
  readonly marks: readonly (readonly [byte: number, char: number])[];
}

/**
 * A decoder that keeps the last bytes of one file it decoded, with a mark about every `markEvery` bytes (a test
 * sets it small, so that edits fall next to marks).
 */
export function openTextMemo(markEvery = 64 * 1024): TextMemo {
  let file: string | null = null;
  let last: Decoded | null = null;
  return {
    decode(absolutePath, bytes) {
      const before = file === absolutePath ? last : null;
      file = absolutePath;
      last = before === null ? decodeWhole(bytes, markEvery) : decodeAgain(before, bytes, markEvery);
      return last.text;
    },
  };
}

function decodeWhole(bytes: Buffer, markEvery: number): Decoded {
  const { text, marks } = decodeMarked(bytes, 0, bytes.length, 0, markEvery);
  return { bytes: Buffer.from(bytes), text, marks };
}

/**
 * `bytes[from, to)` decoded, a stretch at a time, with a mark just after the first line break at or past every
 * `markEvery` bytes; `char` is the text offset of `from`.
 */
function decodeMarked(bytes: Buffer, from: number, to: number, char: number, markEvery: number) {
  const stretches: string[] = [];
  const marks: [number, number][] = [];
  let byte = from;
  let at = char;
  for (;;) {
    const lineBreak = bytes.indexOf(10, byte + markEvery);
    if (lineBreak < 0 || lineBreak + 1 >= to) break;
    const stretch = bytes.toString('utf8', byte, lineBreak + 1);
    stretches.push(stretch);
    at += stretch.length;
    byte = lineBreak + 1;
    marks.push([byte, at]);
  }
  stretches.push(bytes.toString('utf8', byte, to));
  return { text: stretches.join(''), marks };
}

/** The new text: the head and tail `before` shares with `bytes`, cut at marks, and the middle decoded anew. */
function decodeAgain(before: Decoded, bytes: Buffer, markEvery: number): Decoded {
  const same = commonHead(before.bytes, bytes);
  if (same === bytes.length && same === before.bytes.length) return before;
  const tail = commonTail(before.bytes, bytes, same);
  // The last mark inside the common head, and the first mark inside the common tail (in the old bytes).
  let head: readonly [number, number] = [0, 0];
  for (const mark of before.marks) if (mark[0] <= same) head = mark;
  const tailFrom = before.bytes.length - tail;
  const back = before.marks.find(([byte]) => byte >= tailFrom) ?? [before.bytes.length, before.text.length];
  const shift = bytes.length - before.bytes.length;
  const middle = decodeMarked(bytes, head[0], back[0] + shift, head[1], markEvery);
  const text = before.text.slice(0, head[1]) + middle.text + before.text.slice(back[1]);
  const charShift = text.length - before.text.length;
  const marks = [
    ...before.marks.filter(([byte]) => byte <= head[0]),
    ...middle.marks,
    ...before.marks
      .filter(([byte]) => byte >= back[0])
      .map(([byte, char]): [number, number] => [byte + shift, char + charShift]),
  ];
  return { bytes: Buffer.from(bytes), text, marks };
}

/** How many leading bytes `a` and `b` share. */
function commonHead(a: Buffer, b: Buffer): number {
  const length = Math.min(a.length, b.length);
  let at = 0;
  // Block by block (a native comparison each), then byte by byte in the first block that differs.
  for (const block = 4096; at + block <= length && a.compare(b, at, at + block, at, at + block) === 0; ) at += block;
  while (at < length && a[at] === b[at]) at += 1;
  return at;
}

/** How many trailing bytes `a` and `b` share, not reaching into the first `head` bytes of either. */
function commonTail(a: Buffer, b: Buffer, head: number): number {
  const length = Math.min(a.length, b.length) - head;
  let at = 0;
  const block = 4096;
  while (
    at + block <= length &&
    a.compare(b, b.length - at - block, b.length - at, a.length - at - block, a.length - at) === 0
  )
    at += block;
  while (at < length && a[a.length - 1 - at] === b[b.length - 1 - at]) at += 1;
  return at;
}
