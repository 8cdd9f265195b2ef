/**
 * Text a POSIX shell reads back exactly, for the generated files a person pastes into a shell or sources
 * (`.env.example`, the README's commands, package.json's scripts). Their text may come from an imported spec or
 * server, so `$(...)`, backticks and `;` must stay text.
 */

/** Characters no shell treats specially anywhere in a word. */
const plain = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** `text` as one shell word: as it is when every character is plain, else single-quoted with `'` as `'\''`. */
export function shellWord(text: string): string {
  if (plain.test(text)) return text;
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/**
 * `text` as the value of a `.env` line that `sh` (`set -a; . ./.env`) and `node --env-file` both read as the same
 * text, or null when no quoting does: Node's parser ends a single-quoted value at the next `'` and reads no
 * escapes in it, and a line break would end the line for both.
 */
export function dotenvValue(text: string): string | null {
  if (plain.test(text)) return text;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (/['\u0000-\u001f\u007f\u2028\u2029]/.test(text)) return null;
  return `'${text}'`;
}
