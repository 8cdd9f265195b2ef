import { cpSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths.js';

// Only examples/demo, the showcase, commits its generated code (src/generated/); the other examples commit their
// manifest, handlers, tests and DESIGN.md, and a test that compiles or runs one uses a copy that the integration
// and e2e tiers' setup generates (test/support/build.ts).

/** The example whose generated code is committed. */
export const showcase = 'demo';

/** Every example, by folder name. */
export const exampleNames: readonly string[] = readdirSync(path.join(repoRoot, 'examples')).sort();

/** Where the integration and e2e tiers' setup generates the examples other than the showcase. */
export const generatedExamples = path.join(repoRoot, '.test-out', 'examples');

/** A complete project of example `name`: the showcase as committed, any other as the tiers' setup generated it. */
export function exampleDir(name: string): string {
  return name === showcase ? path.join(repoRoot, 'examples', name) : path.join(generatedExamples, name);
}

/** Copies `examples/<name>` into `dir` (emptied first), without its generated code, build or installed modules. */
export function copyExample(name: string, dir: string): void {
  const from = path.join(repoRoot, 'examples', name);
  rmSync(dir, { recursive: true, force: true });
  cpSync(from, dir, {
    recursive: true,
    filter: (source) => !/^(src[\\/]generated|node_modules|dist)$/.test(path.relative(from, source)),
  });
}
