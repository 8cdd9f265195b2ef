import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exampleDir } from '../support/examples.js';
import { repoRoot } from '../support/golden.js';

// Every ```ts block of docs/handlers.md compiles, under strict, as a handler file of the notes example
// (its generated code, its store), so the guide cannot drift from the API it describes.
describe('docs/handlers.md', () => {
  it('every ts snippet type-checks against the notes example', () => {
    const doc = readFileSync(path.join(repoRoot, 'docs', 'handlers.md'), 'utf8');
    const snippets = [...doc.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
    expect(snippets.length).toBeGreaterThanOrEqual(6);
    const dir = path.join(repoRoot, '.test-out', 'handlers-doc');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    cpSync(path.join(exampleDir('notes'), 'src'), path.join(dir, 'src'), { recursive: true });
    cpSync(path.join(repoRoot, 'examples', 'notes', 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
    for (const [i, text] of snippets.entries()) {
      // A snippet that starts with `// src/handlers/....ts` is that file (its imports are relative to it);
      // the others are tool handler files.
      const named = /^\/\/ (src\/handlers\/[a-z/_-]+\.ts)\n/.exec(text)?.[1];
      const file = named ?? path.join('src', 'handlers', 'tools', `doc-snippet-${i + 1}.ts`);
      writeFileSync(path.join(dir, file), text);
    }
    const tsc = path.join(repoRoot, 'node_modules', '.bin', 'tsc');
    const result = spawnSync(tsc, ['-p', 'tsconfig.json', '--noEmit', '--pretty', 'false'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
