import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { goldenDir, materializeGolden, repoRoot } from '../support/golden.js';
import { typecheckProjects } from '../support/typecheck.js';

// Every golden output tree, every example and the runtime templates compile together in one
// strict program against the pinned SDK types, with the generated projects' own settings.
describe('generated code type-checks', () => {
  it('golden trees, examples and runtime templates: zero diagnostics under strict', () => {
    const dir = path.join(repoRoot, '.test-out', 'typecheck');
    mkdirSync(dir, { recursive: true });
    // Golden trees commit only computed files: each one is completed with its template copies first.
    for (const name of readdirSync(goldenDir)) materializeGolden(name, path.join(dir, 'golden', name));
    const result = typecheckProjects(dir, [
      'golden/*/src/**/*.ts',
      'golden/*/test/**/*.ts',
      '../../examples/demo/src/**/*.ts',
      '../../examples/demo/test/**/*.ts',
      // The other examples, whose generated code is not committed, as the tier's setup generated them.
      '../examples/*/src/**/*.ts',
      '../examples/*/test/**/*.ts',
      '../../templates/runtime/*.ts',
    ]);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  });
});

// server.gen.ts loads each handler on its first call; its map must still refuse a handler whose
// signature drifted from the manifest, or one that is not exported under its name.
describe('a drifted handler fails to type-check in server.gen.ts', () => {
  const drifted = (name: string, handler: string): string => {
    const dir = path.join(repoRoot, '.test-out', `drift-${name}`);
    rmSync(dir, { recursive: true, force: true });
    cpSync(path.join(repoRoot, 'examples', 'demo', 'src'), path.join(dir, 'src'), { recursive: true });
    cpSync(path.join(repoRoot, 'examples', 'demo', 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
    writeFileSync(path.join(dir, 'src', 'handlers', 'tools', 'add.ts'), handler);
    const tsc = path.join(repoRoot, 'node_modules', '.bin', 'tsc');
    const result = spawnSync(tsc, ['-p', 'tsconfig.json', '--noEmit', '--pretty', 'false'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(result.status).not.toBe(0);
    return result.stdout + result.stderr;
  };

  it('a handler with the wrong input type', () => {
    const output = drifted(
      'signature',
      'export const addHandler = async (input: { a: string; b: string }) => ({ sum: input.a + input.b });\n',
    );
    expect(output).toMatch(/^src\/generated\/server\.gen\.ts\(\d+,\d+\): error TS2322: /m);
    expect(
      output
        .split('\n')
        .filter((line) => line.includes('error TS'))
        .every((line) => line.startsWith('src/generated/server.gen.ts(')),
    ).toBe(true);
  });

  it('a handler exported under another name', () => {
    const output = drifted(
      'export',
      "import type { ToolHandler } from '../../generated/index.gen.js';\n\n" +
        "export const adder: ToolHandler<'add'> = async (input) => ({ sum: input.a + input.b });\n",
    );
    expect(output).toMatch(
      /^src\/generated\/server\.gen\.ts\(\d+,\d+\): error TS2339: Property 'addHandler' does not exist on type /m,
    );
  });
});

// The exported constant is `<camelCase>Handler`, so the tool's natural name stays free for the domain
// function the handler calls: `import { add }` next to `export const addHandler` compiles (no TS2440).
describe('a handler that imports a domain function named like its tool', () => {
  it('type-checks', () => {
    const dir = path.join(repoRoot, '.test-out', 'typecheck-domain-name');
    rmSync(dir, { recursive: true, force: true });
    cpSync(path.join(repoRoot, 'examples', 'demo', 'src'), path.join(dir, 'src'), { recursive: true });
    cpSync(path.join(repoRoot, 'examples', 'demo', 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
    mkdirSync(path.join(dir, 'src', 'lib'), { recursive: true });
    writeFileSync(
      path.join(dir, 'src', 'lib', 'math.ts'),
      'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
    );
    const handler =
      "import type { ToolHandler } from '../../generated/index.gen.js';\n" +
      "import { add } from '../../lib/math.js';\n\nexport const addHandler: " +
      "ToolHandler<'add'> = async (input) => ({ sum: add(input.a, input.b) });\n";
    writeFileSync(path.join(dir, 'src', 'handlers', 'tools', 'add.ts'), handler);
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
