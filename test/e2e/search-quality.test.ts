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
// right tool in its top 5 for at least 90% of the held-out tasks. test/fixtures/search/github-tasks.json says where
// each set comes from: `tuning` holds the sets that have been read (v1, v1HeldOut, v2 to v6), `heldOut` the set that
// measures generalization (v7).
// Each set's score and misses are printed.

const document = path.join(openApiDocuments, 'node_modules', '@octokit', 'openapi', 'generated', 'api.github.com.json');
const out = path.join(repoRoot, '.test-out', 'search-quality');
type Task = [query: string, tool: string];
const tasks = JSON.parse(
  readFileSync(path.join(repoRoot, 'test', 'fixtures', 'search', 'github-tasks.json'), 'utf8'),
) as { tuning: Record<string, Task[]>; heldOut: Task[] };

let model: ServerModel;

beforeAll(async () => {
  installOpenApiDocuments();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const result = await importOpenApi(document, { out: 'mcp.yaml', force: false, cwd: out });
  if (result.compiled?.model == null) throw new Error('the GitHub draft has no model');
  model = { ...result.compiled.model, discovery: 'search' };
}, 600_000);

/** The tasks of `list` whose tool search_tools (limit 5) finds, after printing the score and misses as `label`. */
function score(label: string, list: readonly Task[]): number {
  const registry = registryData(model);
  const index = toolIndex(registry, new Set(registry.tools.map((t) => t.name)));
  const missed = list.filter(([query, tool]) => !index.search(query, 5).includes(tool)).map(([query]) => query);
  const hits = list.length - missed.length;
  const percent = Math.round((100 * hits) / list.length);
  console.log(`${label}: ${hits} of ${list.length} (${percent}%) in the top 5; missed: ${missed.join('; ') || 'none'}`);
  return hits;
}

describe('search_tools on GitHub', () => {
  it('names only tools the draft has', () => {
    const names = new Set(model.tools.map((t) => t.name));
    const all = [...Object.values(tasks.tuning).flat(), ...tasks.heldOut];
    expect(all.filter(([, tool]) => !names.has(tool))).toEqual([]);
    expect(Object.values(tasks.tuning).flat().length).toBeGreaterThanOrEqual(200);
    expect(tasks.heldOut.length).toBeGreaterThanOrEqual(50);
  });

  it('scores each tuning set', () => {
    const sets = Object.entries(tasks.tuning);
    const hits = sets.reduce((sum, [name, list]) => sum + score(`tuning ${name}`, list), 0);
    const total = sets.reduce((sum, [, list]) => sum + list.length, 0);
    console.log(`tuning, all sets: ${hits} of ${total} (${Math.round((100 * hits) / total)}%)`);
    // A floor under the score before v6 joined (291 of 308, 94%), so a change that loses tuning tasks is seen.
    expect(hits / total).toBeGreaterThanOrEqual(0.92);
  });

  // The held-out set is v7, written by a helper that never saw the tool list or the ranking (its texts saved before it
  // opened the description), and scored once against the ranking tuned on v1 to v5: 55 of 60 (92%).
  it('finds the right tool in the top 5 for at least 90% of the held-out tasks', () => {
    const found = score('held-out', tasks.heldOut);
    expect(found / tasks.heldOut.length).toBeGreaterThanOrEqual(0.9);
  });
});
