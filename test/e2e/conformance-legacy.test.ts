import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  conformanceHandlers,
  conformanceKeys,
  conformanceManifest,
} from '../integration/protocol/conformance-fixture.js';
import { installInterop, legacyConformanceCli, node22, versions } from '../integration/protocol/interop-support.js';
import { repoRoot, sharedBuild, startHttp, type HttpChild } from '../integration/protocol/support.js';
import { checksByScenario } from './conformance-results.js';

// The 2025-11-25 conformance suite (@modelcontextprotocol/conformance 0.1.16, its default run: the
// active scenarios) against the conformance fixture, whose `protocol.legacy: serve` sends 2025-era
// clients to the legacy adapter (sessions, GET streams, real elicitation/create requests). The
// suite needs Node >= 22 and runs on the conformance harness's Node 22; the server stays on this Node.

const results = path.join(repoRoot, '.test-out', 'protocol-conformance-legacy-results');

let server: HttpChild;
let run: { status: number | null; stdout: string; stderr: string };

beforeAll(async () => {
  installInterop();
  const entry = sharedBuild('conformance', conformanceManifest, conformanceHandlers);
  server = await startHttp(entry, conformanceKeys);
  rmSync(results, { recursive: true, force: true });
  const suite = spawnSync(node22, [legacyConformanceCli, 'server', '--url', server.url.href, '-o', results], {
    cwd: path.join(repoRoot, '.test-out'),
    encoding: 'utf8',
    timeout: 300_000,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
  });
  run = { status: suite.status, stdout: suite.stdout, stderr: suite.stderr };
}, 900_000);

afterAll(async () => {
  await server?.stop();
});

describe(`2025-11-25 conformance suite ${versions.legacyConformance}, default run, through the legacy adapter`, () => {
  it('runs on Node 22 while the server runs on this Node', () => {
    expect(spawnSync(node22, ['--version'], { encoding: 'utf8' }).stdout.trim()).toBe(`v${versions.node22}`);
    expect(process.versions.node.split('.')[0]).not.toBe('22');
    expect(run.stdout).toContain('=== SUMMARY ===');
  });

  it('passes every scenario', () => {
    const checks = checksByScenario(results);
    const failing = [...checks].flatMap(([scenario, list]) =>
      list
        .filter((check) => check.status === 'FAILURE')
        .map((check) => `${scenario}:${check.id}: ${check.errorMessage ?? ''}`),
    );
    if (failing.length > 0) console.log(`legacy conformance failures:\n  ${failing.join('\n  ')}`);
    expect(failing).toEqual([]);
    expect(checks.size).toBe(30);
    console.log(`legacy conformance: ${checks.size}/30 scenarios pass`);
    expect(run.status).toBe(0);
  });
});
