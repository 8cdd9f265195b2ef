import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importOpenApi, updateOpenApi } from '../../src/import.js';
import { repoRoot, runIn } from '../support/golden.js';
import { installOpenApiDocuments, openApiDocuments } from '../support/openapi-documents.js';

// `mcp-gen import openapi` on real API descriptions as their publishers ship them in npm packages
// (installed into their own lockfile-pinned project, test/fixtures/import/openapi-documents): each
// draft has no error and passes its own gate but for the context budget (R5, for the four large APIs), generates,
// and the project type-checks.
// GitHub's description (@octokit/openapi, 1,223 operations) is the last and slowest case: its components
// become the manifest's shared schemas, written once (a 4.6 MB draft; with a copy per tool it was
// 12.8 MB, over the 8 MiB manifest cap), and its project of 1,223 tools type-checks.

const modules = path.join(openApiDocuments, 'node_modules');
const out = path.join(repoRoot, '.test-out', 'import-openapi-documents');

beforeAll(() => {
  installOpenApiDocuments();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
}, 600_000);

/** Each document: its file in the fixture project and its operation count. */
const documents = [
  ['petstore-3.0', '@readme/oas-examples/3.0/json/petstore.json', 20],
  ['petstore-2.0', '@readme/oas-examples/2.0/json/petstore.json', 20],
  ['train-travel-3.1', '@readme/oas-examples/3.1/json/train-travel.json', 7],
  ['twilio-verify-v2', '@twilio-alpha/mcp/twilio-oai/spec/json/twilio_verify_v2.json', 53],
  ['twilio-api-v2010', '@twilio-alpha/mcp/twilio-oai/spec/json/twilio_api_v2010.json', 197],
  ['blockfrost', '@blockfrost/openapi/openapi.yaml', 129],
  ['github', '@octokit/openapi/generated/api.github.com.json', 1223],
] as const;

/** The drafts whose tools/list costs more than review.maxListTokens (20,000 tokens): from 43,138 (Twilio Verify). */
const overBudget: readonly string[] = ['twilio-verify-v2', 'twilio-api-v2010', 'blockfrost', 'github'];

describe('import openapi on published API descriptions', () => {
  for (const [name, file, operations] of documents) {
    it(`${name}: the draft passes check but for its context cost, generates and type-checks`, async () => {
      const dir = path.join(out, name);
      mkdirSync(dir, { recursive: true });
      const result = await importOpenApi(path.join(modules, file), { out: 'mcp.yaml', force: false, cwd: dir });
      const diagnostics = result.compiled?.diagnostics ?? [];
      expect(diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code}: ${d.message}`)).toEqual([]);
      expect(result.compiled?.model?.tools.length).toBe(operations);
      const gate = result.compiled?.review?.gate ?? [];
      // A draft of one tool per operation past the context budget fails R5 naming its cost (lint-list-too-large),
      // and nothing else; the smaller ones pass.
      const failed = gate.filter((g) => g.status === 'FAIL');
      expect(failed.map((g) => g.id)).toEqual(overBudget.includes(name) ? ['R5'] : []);
      for (const g of failed) expect(g.reason).toMatch(/^the default tools\/list costs about \d+ tokens \(\d+ tools\)/);
      expect(gate.map((g) => g.id)).toEqual(['G1', 'G2', 'G3', 'G4', 'G5', 'G6', 'G7', 'R1', 'R2', 'R3', 'R4', 'R5']);
      // No draft leaves a hint to MCP's defaults, and every tool has a title.
      expect(diagnostics.filter((d) => d.code === 'lint-missing-hints' || d.code === 'lint-missing-title')).toEqual([]);
      const generated = await runIn(dir, ['generate', 'mcp.yaml']);
      expect({ code: generated.code, stderr: generated.stderr.split('\n').filter((l) => / error /.test(l)) }).toEqual({
        code: 0,
        stderr: [],
      });
      const tsc = spawnSync(path.join(repoRoot, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json', '--noEmit'], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 900_000,
      });
      expect({ status: tsc.status, output: tsc.stdout.split('\n').slice(0, 20) }).toEqual({ status: 0, output: [''] });
    }, 1_800_000);
  }
});

describe("a curated import of GitHub's description", () => {
  it('--include tag:issues imports exactly the operations tagged "issues"', async () => {
    const file = path.join(modules, '@octokit/openapi/generated/api.github.com.json');
    const api = JSON.parse(readFileSync(file, 'utf8')) as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    const tagged = Object.entries(api.paths).flatMap(([route, item]) =>
      Object.entries(item)
        .filter(([, op]) => op.tags?.includes('issues') === true)
        .map(([method, _]) => `${method.toUpperCase()} ${route}`),
    );
    const dir = path.join(out, 'github-issues');
    mkdirSync(dir, { recursive: true });
    const result = await importOpenApi(
      file,
      { out: 'mcp.yaml', force: true, cwd: dir },
      { include: ['tag:issues'], exclude: [], overlays: [] },
    );
    expect(result.draft.warnings).toEqual([]);
    const tools = Object.values(result.draft.data.tools as Record<string, { http: { method: string; path: string } }>);
    expect(tools.map((t) => `${t.http.method} ${t.http.path}`).sort()).toEqual(tagged.sort());
    expect(tagged.length).toBeGreaterThan(40);
    expect(result.compiled?.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // --update against the same spec, with the recorded filter, changes nothing, byte for byte.
    const update = await updateOpenApi(file, { out: 'mcp.yaml', cwd: dir }, null);
    expect([update.update.updated, update.update.conflicts, update.text === result.text]).toEqual([[], [], true]);
  }, 600_000);
});
