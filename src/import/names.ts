/**
 * Names the manifest accepts, made from names a server or a spec chose. A
 * running server's tool, resource, prompt and argument names are kept as they
 * are whenever MCP allows them (`get-sum`, `printEnv`: 1 to 128 characters of
 * `A-Z a-z 0-9 _ - .`), so a generated server lists the same names; only a
 * name MCP does not allow (`Dynamic Text Resource`) and names from an
 * OpenAPI spec become snake_case (`^[a-z][a-z0-9_]*$`, at most 64
 * characters). The server name becomes `^[a-z][a-z0-9-]*$`.
 */
import { derivedNames } from '../model/naming.js';

export { serverName } from '../util/server-name.js';

/** A name MCP allows for a tool; the manifest takes the same for resources, prompts and arguments. */
const wireNamePattern = /^[A-Za-z0-9_.-]{1,128}$/;

const maxName = 64;

/** `getPetById` -> `get_pet_by_id`, `get-sum` -> `get_sum`, `Dynamic Text` -> `dynamic_text`; see `fitWords`. */
export function manifestName(raw: string, fallback: string, optional: readonly string[] = []): string {
  const words = snakeWords(raw);
  if (words.length === 0) return fallback;
  return fitWords(/^[a-z]/.test(words[0] as string) ? words : [fallback, ...words], optional.map(snakeWords));
}

/** The lower-case words of `raw`: an acronym with an optional plural `s` (`IPs`), a word, a number. */
export function snakeWords(raw: string): string[] {
  return (raw.match(/[A-Z]{2,}s(?![a-z])|[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? []).map((w) => w.toLowerCase());
}

/**
 * `words` joined by `_`, at most 64 characters, cut between words and never inside one: first each occurrence of
 * an `optional` run (an operation's path parameters: `companies_company_id_users` says `companies_users` with an id
 * in the input), then words from the second on (the first is the verb; the last say what the operation does, and
 * tell `..._organization` from `..._enterprise`). A single word too long is the only one cut.
 */
export function fitWords(words: readonly string[], optional: readonly (readonly string[])[] = []): string {
  let kept = [...words];
  const fits = () => kept.join('_').length <= maxName;
  for (const run of optional) {
    for (let at = runIndex(kept, run); !fits() && at > 0; at = runIndex(kept, run))
      kept = [...kept.slice(0, at), ...kept.slice(at + run.length)];
  }
  while (!fits() && kept.length > 2) kept.splice(1, 1);
  return kept.join('_').slice(0, maxName).replace(/_+$/, '');
}

/** Where `run` first occurs in `words` after the first word; -1 when it does not (or is empty). */
function runIndex(words: readonly string[], run: readonly string[]): number {
  if (run.length === 0) return -1;
  for (let at = 1; at + run.length <= words.length; at += 1)
    if (run.every((word, i) => words[at + i] === word)) return at;
  return -1;
}

/** Whether `version` is a semantic version the manifest accepts. */
export function isSemver(version: string): boolean {
  return /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.test(version);
}

/**
 * Hands out manifest names without collisions: a second `get_sum`, or a
 * `getSum` after `get-sum` (both would be `getSumHandler`), becomes
 * `get_sum_2`, and the caller notes the rename next to the entry.
 */
export class NameAllocator {
  private readonly taken = new Set<string>();

  /** A free snake_case manifest name for `raw` (an OpenAPI operation, or a wire name MCP does not allow). */
  allocate(raw: string, fallback: string): string {
    const base = manifestName(raw, fallback);
    let name = base;
    // Each candidate's keys are derived once, for the test and the claim.
    let keys = keysOf(name);
    for (let n = 2; !this.isFree(keys); n += 1) {
      name = fitWords([...base.split('_'), String(n)]);
      keys = keysOf(name);
    }
    return this.claim(name, keys);
  }

  /** `raw` itself when MCP allows it and no earlier name takes its identifiers or file; else `allocate`. */
  keep(raw: string, fallback: string): string {
    // `__proto__` fits the pattern, but no JavaScript object can hold it as a key.
    if (!wireNamePattern.test(raw) || raw === '__proto__') return this.allocate(raw, fallback);
    const keys = keysOf(raw);
    return this.isFree(keys) ? this.claim(raw, keys) : this.allocate(raw, fallback);
  }

  private isFree(keys: readonly string[]): boolean {
    return keys.every((key) => !this.taken.has(key));
  }

  private claim(name: string, keys: readonly string[]): string {
    for (const key of keys) this.taken.add(key);
    return name;
  }
}

/** The name itself and what it becomes in a generated project: two names must differ in each. */
function keysOf(name: string): string[] {
  return [`name:${name}`, ...derivedNames(name).map(([what, value]) => `${what}:${value}`)];
}

/** A value from an untrusted source, safe on one comment line: quoted, escapes visible. */
export function quote(value: string): string {
  return JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value);
}

/** The first paragraph of a spec's prose, on one line. */
export function firstParagraph(text: string): string {
  return (text.trim().split(/\n\s*\n/)[0] ?? '').replace(/\s+/g, ' ').trim();
}
