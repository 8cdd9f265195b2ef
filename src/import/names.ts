/**
 * Names the manifest accepts, made from names a server or a spec chose. The
 * wire allows `get-sum`, `printEnv` or `Dynamic Text Resource`; the manifest
 * wants `^[a-z][a-z0-9_]*$` (at most 64 characters) for tools, resources,
 * prompts and arguments, and `^[a-z][a-z0-9-]*$` for the server.
 */

const maxName = 64;

/** `getPetById` -> `get_pet_by_id`, `get-sum` -> `get_sum`, `Dynamic Text` -> `dynamic_text`. */
export function manifestName(raw: string, fallback: string): string {
  // Words: an acronym with an optional plural `s` (`IPs`), a capitalised or lower-case word, a number.
  const words = raw.match(/[A-Z]{2,}s(?![a-z])|[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? [];
  const snake = words.join('_').toLowerCase();
  const named = snake === '' ? fallback : /^[a-z]/.test(snake) ? snake : `${fallback}_${snake}`;
  return named.slice(0, maxName).replace(/_+$/, '');
}

/** `mcp-servers/everything` -> `mcp-servers-everything`. */
export function serverName(raw: string): string {
  const slug = raw.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  const named = slug === '' ? 'imported-server' : /^[a-z]/.test(slug) ? slug : `server-${slug}`;
  return named.slice(0, maxName).replace(/-+$/, '');
}

/** Whether `version` is a semantic version the manifest accepts. */
export function isSemver(version: string): boolean {
  return /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.test(version);
}

/**
 * Hands out manifest names without collisions: a second `get_sum` becomes
 * `get_sum_2`, and the caller notes the rename next to the entry.
 */
export class NameAllocator {
  private readonly taken = new Set<string>();

  /** A free manifest name for `raw`. */
  allocate(raw: string, fallback: string): string {
    const base = manifestName(raw, fallback);
    let name = base;
    for (let n = 2; this.taken.has(name); n += 1) name = `${base.slice(0, maxName - String(n).length - 1)}_${n}`;
    this.taken.add(name);
    return name;
  }
}

/** A value from an untrusted source, safe on one comment line: quoted, escapes visible. */
export function quote(value: string): string {
  return JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value);
}
