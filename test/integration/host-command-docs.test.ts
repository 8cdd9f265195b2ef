import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/golden.js';

// Issue 22: the main README's host command was `dist/src/main.js` while the generated README's was
// `dist/server.mjs`. What a host runs is the bundle, and every text that shows a host command says so.

const docs = readdirSync(path.join(repoRoot, 'docs'))
  .filter((name) => name.endsWith('.md'))
  // benchmarks.md measures the plain tsc output beside the bundle, on purpose.
  .filter((name) => name !== 'benchmarks.md')
  .map((name) => `docs/${name}`);
const texts = ['README.md', ...docs, 'templates/scaffold/README-part.md.hbs'];

describe('every README and doc gives a host the same command', () => {
  it.each(texts)('%s never starts the server with dist/src/main.js', (file) => {
    const text = readFileSync(path.join(repoRoot, file), 'utf8');
    expect(text).not.toMatch(/node dist\/src\/main\.js|"args": \[[^\]]*dist\/src\/main\.js/);
  });

  it('the generated README and the main README both name dist/server.mjs for stdio hosts', () => {
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    expect(readme).toContain('"args": ["/absolute/path/to/my-server/dist/server.mjs"]');
    const generated = readFileSync(path.join(repoRoot, 'test/fixtures/valid/minimal/expected/README.md'), 'utf8');
    expect(generated).toMatch(/"args": \[\n\s+"\/absolute\/path\/to\/[a-z-]+\/dist\/server\.mjs"\n\s+\]/);
    expect(generated).toContain(
      'npm start                 # stdio, in a terminal (a host runs node dist/server.mjs: see below)',
    );
  });
});
