/**
 * mcp-gen's identity, which every cache entry is tagged with: another build of mcp-gen may parse, check and
 * generate differently, so an entry it made is never used.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { compareText } from '../util/compare.js';
import { hashText } from '../util/hash.js';

let identity: string | undefined;

/**
 * A hash of the running mcp-gen itself: its compiled modules, its templates and its package.json, so
 * that any rebuild, not only a new version, invalidates every record.
 */
export function toolIdentity(): string {
  if (identity !== undefined) return identity;
  // Bundled (scripts/bundle-cli.mjs), this module runs from dist/bundle/, which holds all the code that runs;
  // compiled, from dist/cache/, and the code is the rest of dist/. Hashing only that halves what is read.
  const here = new URL('./', import.meta.url);
  const bundled = here.pathname.endsWith('/bundle/');
  const code = bundled ? here : new URL('../', import.meta.url);
  const root = new URL('../../', import.meta.url);
  const parts: string[] = [];
  // The bundle script records a hash of the bundle's files at build (dist/bundle/code-hash.txt), so that a no-op
  // run does not read and hash all of its code again.
  const recorded = bundled ? readRecordedHash(new URL('code-hash.txt', here)) : '';
  const walk = (dir: URL, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => compareText(a.name, b.name))) {
      if (entry.isDirectory() && !bundled && prefix === 'code/' && entry.name === 'bundle') continue;
      if (entry.isDirectory()) walk(new URL(`${entry.name}/`, dir), `${prefix}${entry.name}/`);
      else if (!entry.name.endsWith('.d.ts'))
        parts.push(`${prefix}${entry.name}`, hashText(readFileSync(new URL(entry.name, dir))));
    }
  };
  if (recorded === '') walk(code, 'code/');
  else parts.push(recorded);
  walk(new URL('templates/', root), 'templates/');
  parts.push(hashText(readFileSync(new URL('package.json', root))));
  identity = hashText(parts.join('\n'));
  return identity;
}

function readRecordedHash(file: URL): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}
