import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkManifest } from '../../../src/check.js';
import { importServer } from '../../../src/import.js';
import type { ServerModel } from '../../../src/model/types.js';
import { runPipeline } from '../../../src/pipeline.js';
import { installLiveServers, publishedServers } from '../../support/live-servers.js';
import { exampleDir } from '../../support/examples.js';
import { repoRoot } from '../../support/golden.js';
import { type RunningPostgres, startPostgres } from '../../support/postgres.js';
import { compileProject } from '../../support/servers.js';
import { rawTools } from './raw-list.js';

// `mcp-gen import server` against published servers (installed from the npm registry into their own
// lockfile-pinned project, test/fixtures/import/live-servers) and against every example: the draft
// validates, `check` runs on it, and its tools (names and schemas) equal what the server writes in tools/list.

const published = publishedServers;
const out = path.join(repoRoot, '.test-out', 'import-server');
const examples = readdirSync(path.join(repoRoot, 'examples')).sort();

beforeAll(() => {
  installLiveServers();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(path.join(out, 'fs-root'), { recursive: true });
}, 600_000);

/** Tool schemas are JSON Schema 2020-12: the draft leaves out a `$schema` naming another draft. */
function without2020(schema: unknown): unknown {
  if (schema === undefined) return undefined;
  const { $schema, ...rest } = schema as Record<string, unknown>;
  return $schema === undefined || $schema === 'https://json-schema.org/draft/2020-12/schema' ? schema : rest;
}

/** The draft's tools as `[name, input, output]`, in the draft's order. */
function draftTools(data: Readonly<Record<string, unknown>>): [string, unknown, unknown][] {
  return Object.entries((data.tools ?? {}) as Record<string, { input: unknown; output?: unknown }>).map(([name, t]) => [
    name,
    t.input,
    t.output,
  ]);
}

async function importAndCompare(label: string, command: string, args: string[], modern: boolean) {
  const file = path.join(out, `${label}.yaml`);
  const result = await importServer({ kind: 'command', command, args }, { out: file, force: false, cwd: repoRoot });
  expect(result.written).toBe(true);
  expect(result.compiled?.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const checked = await checkManifest(file, undefined, repoRoot);
  expect(checked.review?.gate.length).toBe(12);
  const live = await rawTools(command, args, modern);
  const expected = live.map((t): [string, unknown, unknown] => [
    String(t.name),
    without2020(t.inputSchema),
    without2020(t.outputSchema),
  ]);
  expect(draftTools(result.draft.data)).toEqual(expected);
  return { ...result, checked };
}

describe('import server: published servers from the npm registry (2025-11-25, stdio)', () => {
  it('@modelcontextprotocol/server-filesystem: names and schemas equal tools/list', async () => {
    const result = await importAndCompare(
      'filesystem',
      process.execPath,
      [path.join(published, 'server-filesystem', 'dist', 'index.js'), path.join(out, 'fs-root')],
      false,
    );
    expect(result.text.split('\n')[0]).toMatch(
      /^# Draft imported by mcp-gen from a running MCP server \(protocol 2025-11-25, legacy era\): /,
    );
  }, 120_000);

  it('@modelcontextprotocol/server-everything: kebab-case names and schemas equal tools/list', async () => {
    const result = await importAndCompare(
      'everything',
      process.execPath,
      [path.join(published, 'server-everything', 'dist', 'index.js')],
      false,
    );
    expect(Object.keys(result.draft.data.tools as object)).toContain('get-sum');
    expect(result.text).toContain('  # not imported from the wire: "execution"\n  get-sum:\n');
    expect(result.text).not.toMatch(/# tool .* renamed/);
    // Names MCP allows but the convention does not are review warnings, never errors.
    const styled = result.checked.diagnostics.filter((d) => d.code === 'lint-name-style');
    expect(styled.map((d) => d.severity)).toEqual(styled.map(() => 'warning'));
    expect(styled.map((d) => d.message)).toContain('tool name "get-sum" is not snake_case');
    expect(Object.keys(result.draft.data.prompts as object).length).toBeGreaterThan(0);
    expect(Object.keys(result.draft.data.resources as object).length).toBeGreaterThan(0);
  }, 120_000);

  it('server-everything: a server generated from the draft lists the same tool names', async () => {
    const file = path.join(out, 'everything.yaml');
    const project = path.join(out, 'everything-generated');
    rmSync(project, { recursive: true, force: true });
    const generate = spawnSync(
      process.execPath,
      [path.join(repoRoot, 'bin', 'mcp-gen.js'), 'generate', file, '--out', project],
      { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 },
    );
    expect(generate.stderr).toBe('');
    expect(generate.status).toBe(0);
    const entry = compileProject(project, path.join(project, 'dist'));
    const live = await rawTools(
      process.execPath,
      [path.join(published, 'server-everything', 'dist', 'index.js')],
      false,
    );
    const generated = await rawTools(process.execPath, [entry], true);
    expect(generated.map((t) => t.name)).toEqual([...live.map((t) => t.name)].sort());
  }, 240_000);
});

/** What the wire carries of a model: see docs/import.md for what it does not. */
function wireView(model: ServerModel) {
  return {
    server: { ...model.server },
    tools: model.tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      annotations: t.annotations,
      input: t.wireInput,
      output: t.wireOutput,
    })),
    resources: model.resources.map((r) => ({
      name: r.name,
      uri: r.uri,
      uriTemplate: r.uriTemplate,
      title: r.title,
      description: r.description,
      mimeType: r.mimeType,
    })),
    prompts: model.prompts.map((p) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      arguments: p.arguments.map(({ completions: _c, ...a }) => a),
    })),
  };
}

// examples/library's setup connects to PostgreSQL before it serves: a throwaway cluster, and the database URL in
// an env file Node reads (the importer starts a command with the SDK's default environment only).
let postgres: RunningPostgres | null = null;
afterAll(() => postgres?.stop());
async function nodeArguments(example: string, entry: string): Promise<string[]> {
  if (example !== 'library') return [entry];
  postgres ??= await startPostgres();
  const envFile = path.join(out, 'library.env');
  writeFileSync(envFile, `LIBRARY_DATABASE_URL=${postgres.createDatabase('library_import')}\n`);
  return [`--env-file=${envFile}`, entry];
}

describe('import server: every example (2026-07-28, stdio), and the round trip', () => {
  for (const example of examples) {
    it(`examples/${example}: tools equal tools/list; the normalized draft equals the wire manifest`, async () => {
      const manifest = path.join(repoRoot, 'examples', example, 'mcp.yaml');
      // The committed example as it is (generated code, handlers and their modules), compiled with its own tsconfig.
      const entry = compileProject(exampleDir(example), path.join(out, `build-${example}`));
      const args = await nodeArguments(example, entry);
      const result = await importAndCompare(`example-${example}`, process.execPath, args, true);
      expect(result.text.split('\n')[0]).toMatch(
        /^# Draft imported by mcp-gen from a running MCP server \(protocol 2026-07-28, modern era\): /,
      );
      const original = (await runPipeline({ manifest: manifest, cwd: repoRoot }, 'normalize')).model;
      expect(original).not.toBeNull();
      expect(wireView(result.compiled?.model as ServerModel)).toEqual(wireView(original as ServerModel));
    }, 240_000);
  }
});
