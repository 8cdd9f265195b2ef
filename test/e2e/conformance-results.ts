import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/** One check of the official conformance suite, as its checks.json files hold it. */
export interface Check {
  readonly id: string;
  readonly status: string;
  readonly errorMessage?: string;
}

/** Checks by scenario, from the suite's `<results>/server-<scenario>-<timestamp>/checks.json` files. */
export function checksByScenario(results: string): Map<string, Check[]> {
  const map = new Map<string, Check[]>();
  for (const dir of readdirSync(results)) {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(dir)?.[1];
    if (scenario === undefined) continue;
    map.set(scenario, JSON.parse(readFileSync(path.join(results, dir, 'checks.json'), 'utf8')) as Check[]);
  }
  return map;
}

/**
 * Runs the 2026-07-28 suite (`cli`, on `node22`) against `url`, its results written to `results` (emptied first);
 * returns what it printed.
 */
export function runSuite(node22: string, cli: string, url: URL, results: string, cwd: string) {
  rmSync(results, { recursive: true, force: true });
  const suite = spawnSync(node22, [cli, 'server', '--url', url.href, '--requirements', '2026-07-28', '-o', results], {
    cwd,
    encoding: 'utf8',
    timeout: 300_000,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
  });
  return { status: suite.status, stdout: suite.stdout, stderr: suite.stderr };
}

/** The scenarios the suite at `cli` scores for 2026-07-28 (its requirements file). */
export function scoredScenarios(cli: string): string[] {
  const file = path.join(path.dirname(cli), '..', 'requirements', '2026-07-28.yaml');
  return (parse(readFileSync(file, 'utf8')) as { server: string[] }).server;
}
