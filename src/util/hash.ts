import { createHash } from 'node:crypto';

/** The SHA-256 of `text` (UTF-8), in hex: how run records name file contents and inputs. */
export function hashText(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

let last: { readonly text: string; readonly hash: string } | null = null;

/**
 * `hashText` of a text that one run hashes again and again, remembering the last: the manifest, which generate
 * keys its run on, checks again before the commit, records, and looks up in and saves to the parse cache (a large
 * manifest is costly to hash each time). Another text replaces the remembered one.
 */
export function hashTextOnce(text: string): string {
  if (last === null || last.text !== text) last = { text, hash: hashText(text) };
  return last.hash;
}

/** One buffer for every `hashReads`: a fresh buffer per large file costs more than hashing what it holds. */
const chunk = Buffer.allocUnsafe(1024 * 1024);

/**
 * `hashText` of the bytes `read` puts into a buffer, a chunk at a time, until it returns 0 (a file read a
 * megabyte at a time, never whole). Leading bytes equal to `skip` are left out (a byte-order mark).
 */
export function hashReads(read: (into: Buffer) => number, skip: Uint8Array = new Uint8Array(0)): string {
  const hash = createHash('sha256');
  let first = true;
  for (let count = read(chunk); count > 0; count = read(chunk)) {
    const from = first && count >= skip.length && chunk.subarray(0, skip.length).equals(skip) ? skip.length : 0;
    hash.update(chunk.subarray(from, count));
    first = false;
  }
  return hash.digest('hex');
}
