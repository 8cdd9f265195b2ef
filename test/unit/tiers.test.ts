import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/golden.js';

// The unit tier runs without a build and inside the test process (docs/testing.md). A unit test
// that starts Node, runs bin/mcp-gen.js, reads dist/ or starts a compiler belongs in
// test/integration/, where dist/ is rebuilt first; this test names the offenders. It reads every
// file under test/unit/ and every test module those files import.

const unitDir = path.join(repoRoot, 'test', 'unit');
/** This file names the patterns it looks for, so it is the one file not read. */
const self = path.join(unitDir, 'tiers.test.ts');
const forbidden: readonly [RegExp, string][] = [
  [/process\.execPath/, 'starts a Node process'],
  [/mcp-gen\.js/, 'runs bin/mcp-gen.js'],
  [/['"/]dist['"/]/, 'reads dist/'],
  [/['"/]\.bin['"/]/, 'runs a tool from node_modules/.bin'],
];

/** The code of a file without its comments, which may well name what the code must not do. */
function codeOf(file: string): string {
  return readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : name.endsWith('.ts') ? [full] : [];
  });
}

/** `files` and every module under test/ they import, transitively. */
function withTestImports(files: readonly string[]): string[] {
  const seen = new Set<string>();
  const queue = [...files];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, spec = ''] of readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'"]*from '(\.[^']+)'/gm)) {
      const target = path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts'));
      if (target.startsWith(path.join(repoRoot, 'test') + path.sep) && existsSync(target)) queue.push(target);
    }
  }
  return [...seen].sort();
}

describe('test tiers', () => {
  it('unit tests and the test modules they use start no process of Node, mcp-gen or a compiler', () => {
    const offenders = withTestImports(filesUnder(unitDir).filter((file) => file !== self)).flatMap((file) =>
      forbidden
        .filter(([pattern]) => pattern.test(codeOf(file)))
        .map(([, what]) => `${path.relative(repoRoot, file)} ${what}: move it to test/integration/`),
    );
    expect(offenders).toEqual([]);
  });

  it('every test file lives in a tier folder, so vitest runs it', () => {
    const tiers = ['unit', 'integration', 'e2e'].map((tier) => path.join(repoRoot, 'test', tier) + path.sep);
    const fixtures = path.join(repoRoot, 'test', 'fixtures') + path.sep;
    const stray = filesUnder(path.join(repoRoot, 'test'))
      .filter((file) => file.endsWith('.test.ts') && !file.startsWith(fixtures))
      .filter((file) => !tiers.some((tier) => file.startsWith(tier)))
      .map((file) => path.relative(repoRoot, file));
    expect(stray).toEqual([]);
  });
});
