/**
 * SIGKILL at random instants during `mcp-gen generate` on a 500-tool project whose new manifest
 * renames every tool (so every generated file changes and every handler moves). After each kill,
 * either the tree is exactly the old or the new one, or `generate --check` reports the interrupted
 * run; then one `generate` must leave exactly the new tree, with no stray file.
 *
 * Half of the kill instants are uniform over a whole run; the other half are uniform over the window
 * in which the run writes (from the moment its pending folder appears to the end), so that many land
 * mid-commit. Instants come from a seeded generator; the seed is printed so a failure can be replayed:
 *   MCP_GEN_KILLS=50 MCP_GEN_KILL_SEED=<seed> npx vitest run test/kill.test.ts
 * MCP_GEN_KILLS defaults to 10.
 *
 * Recorded run (2026-12-01, busy 2-core box): see docs/architecture.md, "Surviving a kill".
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain JavaScript shared with the benchmarks
import { syntheticManifest } from '../scripts/bench/manifests.mjs';
import { pendingFolder as pending } from '../src/write/index.js';
import { listTree, repoRoot } from './support/golden.js';

const kills = Number.parseInt(process.env.MCP_GEN_KILLS ?? '10', 10);
const seed = Number.parseInt(process.env.MCP_GEN_KILL_SEED ?? String(Date.now() % 2_147_483_647), 10);
const base = path.join(repoRoot, '.test-out', 'kill');
const oldCopy = path.join(base, 'old');
const work = path.join(base, 'work');
const bin = path.join(repoRoot, 'bin', 'mcp-gen.js');

/** A small seeded generator (mulberry32): the same seed gives the same kill instants. */
function random(start: number): () => number {
  let a = start >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Every file under `dir`, path -> bytes. */
function snapshot(dir: string): Map<string, string> {
  return new Map(listTree(dir).map((f) => [f, readFileSync(path.join(dir, f)).toString('base64')]));
}

function same(a: Map<string, string>, b: Map<string, string>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
}

function cli(args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: work, encoding: 'utf8', timeout: 600_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starts `generate` and kills it after `delay` ms; resolves whether the kill landed before the run ended. */
function generateAndKill(delay: number): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'generate', 'mcp.yaml'], { cwd: work, stdio: 'ignore' });
    let killed = false;
    const timer = setTimeout(() => {
      killed = child.kill('SIGKILL');
    }, delay);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve(killed && signal === 'SIGKILL');
    });
  });
}

/** Runs `generate` to the end, noting when the pending folder is first and last seen. */
function timedGenerate(): Promise<{ total: number; writeStart: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let writeStart = -1;
    const child = spawn(process.execPath, [bin, 'generate', 'mcp.yaml'], { cwd: work, stdio: 'ignore' });
    const poll = setInterval(() => {
      if (writeStart < 0 && existsSync(path.join(work, pending))) writeStart = performance.now() - started;
    }, 2);
    child.on('exit', (code) => {
      clearInterval(poll);
      if (code !== 0) reject(new Error(`generate exited with ${code}`));
      else resolve({ total: performance.now() - started, writeStart });
    });
  });
}

const v1 = syntheticManifest(500) as string;
// Every tool gets a new name and says which one it had: every handler moves, every generated file changes.
const v2 = v1.replace(/^ {2}tool_(\d{5}):$/gm, '  item_$1:\n    renamedFrom: tool_$1');

function resetToOld(): void {
  rmSync(work, { recursive: true, force: true });
  cpSync(oldCopy, work, { recursive: true });
}

let oldTree: Map<string, string>;
let newTree: Map<string, string>;
let timing: { total: number; writeStart: number };

beforeAll(async () => {
  execFileSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'ignore', timeout: 300_000 });
  rmSync(base, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(path.join(work, 'mcp.yaml'), v1);
  expect(cli(['generate', 'mcp.yaml']).code).toBe(0);
  writeFileSync(path.join(work, 'mcp.yaml'), v2);
  cpSync(work, oldCopy, { recursive: true });
  oldTree = snapshot(work);
  timing = await timedGenerate();
  newTree = snapshot(work);
  expect(timing.writeStart).toBeGreaterThan(0);
}, 1_200_000);

describe('generate killed at random instants', () => {
  it(`ends in the old or the new tree, or is reported and repaired (${kills} kills)`, async () => {
    expect(newTree.size).toBeGreaterThan(500);
    // Every handler and every file derived from the tools changes; scaffold and runtime files stay.
    const paths = new Set([...oldTree.keys(), ...newTree.keys()]);
    expect([...paths].filter((f) => oldTree.get(f) !== newTree.get(f)).length).toBeGreaterThan(1000);
    const next = random(seed);
    const outcomes = { old: 0, new: 0, staged: 0, midCommit: 0, finishedBeforeKill: 0 };
    console.log(`kill test: ${kills} kills, seed ${seed}; a whole run takes ${Math.round(timing.total)} ms, writing from ${Math.round(timing.writeStart)} ms`);
    for (let i = 0; i < kills; i++) {
      resetToOld();
      const delay = i % 2 === 0 ? next() * timing.total : timing.writeStart + next() * (timing.total - timing.writeStart);
      const killed = await generateAndKill(delay);
      const after = snapshot(work);
      const label = `kill ${i} at ${Math.round(delay)} ms (seed ${seed})`;
      const progress = (outcome: string) => appendFileSync(path.join(base, 'log.txt'), `${label}: ${outcome}\n`);
      if (!killed) outcomes.finishedBeforeKill++;
      if (same(after, oldTree)) {
        outcomes.old++;
        progress(killed ? 'old tree' : 'old tree (the run had ended)');
      } else if (same(after, newTree)) {
        outcomes.new++;
        progress(killed ? 'new tree' : 'new tree (the run had ended)');
      } else {
        const committed = existsSync(path.join(work, pending, 'journal.json'));
        if (committed) outcomes.midCommit++;
        else outcomes.staged++;
        progress(committed ? 'mid-commit: journal written, tree half new' : 'old tree with staged files');
        // Not a consistent tree: the pending folder must be there, and --check must say so.
        expect(existsSync(path.join(work, pending)), label).toBe(true);
        const check = cli(['generate', 'mcp.yaml', '--check']);
        expect(check.code, label).toBe(1);
        expect(check.stderr, label).toMatch(/^mcp\.yaml: an interrupted run left .*; run "npx mcp-gen generate mcp\.yaml" to repair it\n/);
        expect(check.stdout, label).toBe('');
      }
      const repair = cli(['generate', 'mcp.yaml']);
      expect(repair.code, `${label}\n${repair.stderr}`).toBe(0);
      const repaired = snapshot(work);
      expect([...repaired.keys()].filter((f) => !newTree.has(f)), label).toEqual([]);
      expect(same(repaired, newTree), label).toBe(true);
    }
    console.log(`kill test: ${JSON.stringify(outcomes)}`);
    expect(outcomes.old + outcomes.new + outcomes.staged + outcomes.midCommit).toBe(kills);
  }, 120_000 + kills * 300_000);
});
