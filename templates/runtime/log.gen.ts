/**
 * Diagnostics on stderr (stdout belongs to the protocol on stdio), with every secret start-up read and every URL
 * credential hidden.
 */
/**
 * Writes one diagnostic entry to stderr: stdout belongs to the protocol on stdio. Control characters are escaped (`\n`,
 * `\r`, `\x1b`, ...) so that text from a request cannot forge or rewrite an entry; only a line break before a space
 * stays (a stack's frames, a list of problems), so every line after an entry's first is indented under it.
 */
export const logToStderr = (message: string): void =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is escaped
  void process.stderr.write(`${redact(message).replace(/(\n(?= ))|[\0-\x1f\x7f]/g, escapeControl)}\n`);

/**
 * Never written to a log: the secret values start-up read (hideSecrets) and the forms a credential went out in
 * (hideSent; the newest 256, as tokens are renewed for as long as the server runs). Longest first, so a secret that
 * contains another is hidden whole.
 */
let hidden: string[] = [];
const startTexts: string[] = [];
const sentTexts: string[] = [];

function keep(list: string[], values: readonly string[]): void {
  // Shorter values would hide ordinary words; a URL's shorter password is hidden by its `:password@` shape.
  for (const v of values) if (v.length >= 6 && !hidden.includes(v) && !list.includes(v)) list.push(v);
  sentTexts.splice(0, sentTexts.length - 256);
  hidden = [...startTexts, ...sentTexts].sort((a, b) => b.length - a.length);
}

/**
 * `text` with every secret value start-up read and every credential of a URL, well-formed or not (`//user:password@`,
 * `user:password@`, `//token@`: a mistyped `redis//default:PASS@host` too), replaced by `***`.
 */
export function redact(text: string): string {
  let result = text;
  for (const secret of hidden) result = result.split(secret).join('***');
  return result.replace(/[^\s/@:]*:[^\s/@]*@|(?<=\/\/)[^\s/@]+@/g, '***@');
}

/**
 * Adds the values of `names` in `environment` to what `redact` hides, and a URL's password; of `connections` (the
 * store URL, its host worth logging) only the password, or the whole value when it does not parse.
 */
export function hideSecrets(environment: NodeJS.ProcessEnv, names: readonly string[], connections: string[] = []) {
  for (const name of [...names, ...connections]) {
    const value = environment[name] ?? '';
    const url = URL.canParse(value) ? new URL(value) : null;
    const password = url?.password ?? '';
    const whole = url === null || names.includes(name) ? value : '';
    keep(startTexts, [whole, password, decodeURIComponent(password.replace(/%(?![0-9a-f]{2})/gi, '%25'))]);
  }
}

/**
 * Adds to what `redact` hides the forms in which a credential went out (a key percent-encoded in a query, a Basic
 * payload, a fetched token): an API that echoes a request echoes those, not the value start-up read.
 */
export const hideSent = (values: readonly string[]): void => keep(sentTexts, values);

const escapeControl = (c: string, frame: string | undefined): string =>
  frame ?? (c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
