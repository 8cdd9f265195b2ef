import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/golden.js';

// Emit compiles the types and validators of a large manifest on a worker thread (src/emit/worker): the built CLI
// must write the same bytes with the thread forced on as with it off, for the examples and for an imported API
// with shared schemas (which cross to the thread by structured clone and must stay shared there).

const root = path.join(repoRoot, '.test-out', 'emit-worker');
const bin = path.join(repoRoot, 'bin', 'mcp-gen.js');

const team = { $ref: '#/schemas/team' };
const user = { $ref: '#/schemas/user' };
/** Three tools over two shared schemas, one of them recursive (as JSON, which YAML reads as is). */
const sharedManifest = JSON.stringify({
  mcpGen: 1,
  server: { name: 'teams', version: '1.0.0' },
  schemas: {
    user: {
      type: 'object',
      properties: { login: { type: 'string', maxLength: 39 }, manager: user },
      required: ['login'],
    },
    team: { type: 'object', properties: { lead: user, name: { type: 'string', maxLength: 9 } } },
  },
  tools: Object.fromEntries(
    ['get_team', 'list_teams', 'find_team'].map((name) => [
      name,
      {
        description: `Returns the team (${name}) with its lead, and the lead with their manager.`,
        annotations: { readOnlyHint: true, openWorldHint: false },
        input: { type: 'object', additionalProperties: false, properties: { team } },
        output: { type: 'object', properties: { lead: user } },
      },
    ]),
  ),
});

function run(cwd: string, args: string[], worker: 'on' | 'off') {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    // No cache: each run builds everything itself.
    env: { ...process.env, MCP_GEN_WORKER: worker, MCP_GEN_CACHE_DIR: '' },
  });
  expect(result.status, `${args.join(' ')} (worker ${worker}):\n${result.stderr}`).toBe(0);
  return result;
}

/** Every file under `dir` with its bytes, by relative path. */
function tree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dir, file), readFileSync(file, 'latin1'));
  }
  return files;
}

function generateBoth(name: string, manifest: string): { on: Map<string, string>; off: Map<string, string> } {
  const trees = {} as { on: Map<string, string>; off: Map<string, string> };
  for (const worker of ['on', 'off'] as const) {
    const dir = path.join(root, name, worker);
    mkdirSync(dir, { recursive: true });
    cpSync(manifest, path.join(dir, 'mcp.yaml'));
    run(dir, ['generate', 'mcp.yaml'], worker);
    trees[worker] = tree(dir);
  }
  return trees;
}

beforeAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('the emit worker', () => {
  it('writes the same bytes as emitting on one thread, for every example', () => {
    for (const example of readdirSync(path.join(repoRoot, 'examples')).sort()) {
      const { on, off } = generateBoth(example, path.join(repoRoot, 'examples', example, 'mcp.yaml'));
      expect([...on.keys()].sort(), example).toEqual([...off.keys()].sort());
      for (const [file, bytes] of off) expect(on.get(file), `${example}: ${file}`).toBe(bytes);
      expect(off.get(path.join('src', 'generated', 'validators.gen.ts'))).toContain('export const validators');
    }
  }, 300_000);

  it('writes the same bytes for an imported API whose tools share schemas', () => {
    const draft = path.join(root, 'petstore.yaml');
    mkdirSync(root, { recursive: true });
    run(
      root,
      ['import', 'openapi', path.join(repoRoot, 'test/fixtures/import/openapi/petstore.json'), '--out', draft],
      'off',
    );
    expect(readFileSync(draft, 'utf8')).toMatch(/^schemas:$/m);
    const { on, off } = generateBoth('petstore', draft);
    expect([...on.keys()].sort()).toEqual([...off.keys()].sort());
    for (const [file, bytes] of off) expect(on.get(file), file).toBe(bytes);
  }, 300_000);

  it('keeps shared schemas shared on the thread: their validators are compiled together, each schema once', () => {
    const manifest = path.join(root, 'shared.yaml');
    writeFileSync(manifest, sharedManifest);
    const { on, off } = generateBoth('shared', manifest);
    const validators = path.join('src', 'generated', 'validators.gen.ts');
    expect(off.get(validators)).toContain('const shared = ');
    expect(on.get(validators)).toBe(off.get(validators));
    for (const [file, bytes] of off) expect(on.get(file), file).toBe(bytes);
  }, 300_000);
});
