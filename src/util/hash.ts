import { createHash } from 'node:crypto';

/** The SHA-256 of `text` (UTF-8), in hex: how run records name file contents and inputs. */
export function hashText(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}
