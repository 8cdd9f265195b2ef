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

/** The secret values start-up read (hideSecrets), longest first; never written to a log. */
const secretTexts: string[] = [];

/**
 * `text` with every secret value start-up read and every credential of a URL, well-formed or not (`//user:password@`,
 * `user:password@`, `//token@`: a mistyped `redis//default:PASS@host` too), replaced by `***`.
 */
export function redact(text: string): string {
  let result = text;
  for (const secret of secretTexts) result = result.split(secret).join('***');
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
    // Shorter values would hide ordinary words; a URL's shorter password is hidden by its `:password@` shape.
    for (const secret of [whole, password, decodeURIComponent(password.replace(/%(?![0-9a-f]{2})/gi, '%25'))])
      if (secret.length >= 6 && !secretTexts.includes(secret)) secretTexts.push(secret);
  }
  secretTexts.sort((a, b) => b.length - a.length);
}

const escapeControl = (c: string, frame: string | undefined): string =>
  frame ?? (c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
