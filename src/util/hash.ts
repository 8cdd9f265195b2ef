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
