/**
 * SIGKILL at random instants during `mcp-gen generate` on a project of `MCP_GEN_KILL_TOOLS` tools
 * (200 by default) whose new manifest renames every tool (so every handler moves and every file
 * derived from the tools changes). After each kill, either the tree is exactly the old or the new
 * one, or `generate --check` reports the interrupted run; then one `generate` must leave exactly the
 * new tree, with no stray file. A lock file left by the killed run (`.mcp-gen-lock`, its process now
 * gone) is not counted as a change of the tree; the next run takes it over and it must be gone after.
 *
 * The runs it kills sleep `MCP_GEN_WRITE_DELAY_MS` (2 by default) at every point of their stage, commit
 * and apply phases (the write stage's test seam), so the write phase is wide on any machine. One kill
 * in six lands uniformly over a whole run, three in six uniformly while it stages (from the moment its
 * pending folder appears to its commit point, when its journal appears), two in six uniformly between
 * the commit point and the end of its write (its pending folder gone). Where each kill landed (what
 * the folder held at that instant) is counted. The box's speed changes with its load, so every run
 * that ends on its own updates the estimates. Instants come from a seeded generator; the seed is
 * printed so a failure can be replayed:
 *   MCP_GEN_KILLS=66 MCP_GEN_KILL_TOOLS=100 MCP_GEN_KILL_SEED=<seed> npx vitest run test/integration/kill.test.ts
 * MCP_GEN_KILLS defaults to 10. Each kill is logged to .test-out/kill/log.txt as it happens.
 * The design it tests is described in docs/architecture.md ("Surviving a kill").
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain JavaScript shared with the benchmarks
import { syntheticManifest } from '../../scripts/bench/manifests.mjs';
import { lockName, pendingFolder } from '../../src/write/index.js';
import { listTree, repoRoot } from '../support/golden.js';

const kills = Number.parseInt(process.env.MCP_GEN_KILLS ?? '10', 10);
const tools = Number.parseInt(process.env.MCP_GEN_KILL_TOOLS ?? '200', 10);
const childEnv = { ...process.env, MCP_GEN_WRITE_DELAY_MS: process.env.MCP_GEN_WRITE_DELAY_MS ?? '2' };
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

/** Every file under `dir`, path -> bytes; without the lock file of a killed run when asked. */
function snapshot(dir: string, withoutLock = false): Map<string, string> {
  const files = listTree(dir).filter((f) => !withoutLock || f !== lockName);
  return new Map(files.map((f) => [f, readFileSync(path.join(dir, f)).toString('base64')]));
}

function same(a: Map<string, string>, b: Map<string, string>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
}

/** A run that is not killed (setup, --check, the repair): at full speed, without the write delay. */
function cli(args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: work,
    encoding: 'utf8',
    timeout: 600_000,
    env: { ...process.env, MCP_GEN_WRITE_DELAY_MS: '0' },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * When to kill: `afterStart` ms after the spawn, `afterWrite` ms after the run's pending folder
 * appears, or `afterCommit` ms after its journal appears.
 */
type KillPlan = { readonly afterStart: number } | { readonly afterWrite: number } | { readonly afterCommit: number };

/**
 * Where a kill landed, by what the folder held at that instant: no pending folder yet (`loading`),
 * the folder without a journal (`staging`), the journal (`committed`: applying), the folder after
 * its journal was deleted (`finishing`), no folder again (`done`: the run was saving its caches).
 */
type Phase = 'loading' | 'staging' | 'committed' | 'finishing' | 'done';

/**
 * What one spawned run did: whether the kill landed and where, how long it
 * ran, when it began to write, committed and ended writing (its pending folder gone; -1: never seen).
 */
interface RunTiming {
  readonly killed: boolean;
  readonly phase: Phase | null;
  readonly code: number | null;
  readonly elapsed: number;
  readonly writeStart: number;
  readonly commit: number;
  readonly writeEnd: number;
}

/** Starts `generate`, watches for its pending folder, and kills it as planned (never, without a plan). */
function runGenerate(plan: KillPlan | null): Promise<RunTiming> {
  return new Promise((resolve) => {
    const started = performance.now();
    let writeStart = -1;
    let commit = -1;
    let writeEnd = -1;
    let killed = false;
    let phase: Phase | null = null;
    const child = spawn(process.execPath, [bin, 'generate', 'mcp.yaml'], { cwd: work, stdio: 'ignore', env: childEnv });
    const kill = () => {
      const pending = existsSync(path.join(work, pendingFolder));
      const journal = pending && existsSync(path.join(work, pendingFolder, 'journal.json'));
      if (!pending) phase = writeStart < 0 ? 'loading' : 'done';
      else phase = journal ? 'committed' : commit < 0 ? 'staging' : 'finishing';
      killed = child.kill('SIGKILL');
    };
    const timers = plan !== null && 'afterStart' in plan ? [setTimeout(kill, plan.afterStart)] : [];
    const poll = setInterval(() => {
      if (writeStart < 0 && existsSync(path.join(work, pendingFolder))) {
        writeStart = performance.now() - started;
        if (plan !== null && 'afterWrite' in plan) timers.push(setTimeout(kill, plan.afterWrite));
      }
      if (commit >= 0 && writeEnd < 0 && !existsSync(path.join(work, pendingFolder)))
        writeEnd = performance.now() - started;
      if (writeStart >= 0 && commit < 0 && existsSync(path.join(work, pendingFolder, 'journal.json'))) {
        commit = performance.now() - started;
        if (plan !== null && 'afterCommit' in plan) timers.push(setTimeout(kill, plan.afterCommit));
      }
    }, 1);
    child.on('exit', (code, signal) => {
      for (const timer of timers) clearTimeout(timer);
      clearInterval(poll);
      const landed = killed && signal === 'SIGKILL';
      // Ended between two polls: its folder was gone by the exit.
      if (!landed && commit >= 0 && writeEnd < 0) writeEnd = performance.now() - started;
      resolve({
        killed: landed,
        phase: landed ? phase : null,
        code,
        elapsed: performance.now() - started,
        writeStart,
        commit,
        writeEnd,
      });
    });
  });
}

const v1 = syntheticManifest(tools) as string;
// Every tool gets a new name and says which one it had.
const v2 = v1.replace(/^ {2}tool_(\d{5}):$/gm, '  item_$1:\n    renamedFrom: tool_$1');

function resetToOld(): void {
  rmSync(work, { recursive: true, force: true });
  cpSync(oldCopy, work, { recursive: true });
}

let oldTree: Map<string, string>;
let newTree: Map<string, string>;
let timing: RunTiming;

beforeAll(async () => {
  rmSync(base, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(path.join(work, 'mcp.yaml'), v1);
  expect(cli(['generate', 'mcp.yaml']).code).toBe(0);
  writeFileSync(path.join(work, 'mcp.yaml'), v2);
  cpSync(work, oldCopy, { recursive: true });
  oldTree = snapshot(work);
  timing = await runGenerate(null);
  newTree = snapshot(work);
  expect(timing.code).toBe(0);
  expect(timing.writeStart).toBeGreaterThan(0);
  expect(timing.commit).toBeGreaterThan(timing.writeStart);
  expect(timing.writeEnd).toBeGreaterThan(timing.commit);
}, 1_200_000);

describe('generate killed at random instants', () => {
  it(
    `ends in the old or the new tree, or is reported and repaired (${kills} kills)`,
    async () => {
      // Every handler moves and every file derived from the tools changes; scaffold and runtime files stay.
      const paths = new Set([...oldTree.keys(), ...newTree.keys()]);
      expect([...paths].filter((f) => oldTree.get(f) !== newTree.get(f)).length).toBeGreaterThan(2 * tools);
      const next = random(seed);
      const outcomes = { killed: 0, old: 0, new: 0, staged: 0, midCommit: 0 };
      const landed: Record<Phase, number> = { loading: 0, staging: 0, committed: 0, finishing: 0, done: 0 };
      console.log(
        `kill test: ${kills} kills over ${tools} tools, seed ${seed}, ` +
          `write delay ${childEnv.MCP_GEN_WRITE_DELAY_MS} ms; ` +
          `a whole run took ${Math.round(timing.elapsed)} ms, ` +
          `writing from ${Math.round(timing.writeStart)} ms, committed at ${Math.round(timing.commit)} ms, ` +
          `written at ${Math.round(timing.writeEnd)} ms`,
      );
      for (let i = 0; i < kills; i++) {
        resetToOld();
        const r = next();
        const plan: KillPlan =
          i % 6 === 0
            ? { afterStart: r * timing.elapsed }
            : i % 6 <= 3
              ? { afterWrite: r * (timing.commit - timing.writeStart) }
              : { afterCommit: r * Math.max(timing.writeEnd - timing.commit, 5) };
        const run = await runGenerate(plan);
        if (!run.killed && run.code === 0 && run.writeStart > 0 && run.writeEnd > run.commit && run.commit > 0)
          timing = run;
        const when =
          'afterStart' in plan
            ? `${Math.round(plan.afterStart)} ms after start`
            : 'afterWrite' in plan
              ? `${Math.round(plan.afterWrite)} ms after writing began`
              : `${Math.round(plan.afterCommit)} ms after the commit point`;
        const label = `kill ${i}, ${when} (seed ${seed})`;
        const after = snapshot(work, true);
        let outcome: string;
        if (run.killed) outcomes.killed++;
        if (run.phase !== null) landed[run.phase]++;
        if (same(after, oldTree)) {
          outcomes.old++;
          outcome = 'old tree';
        } else if (same(after, newTree)) {
          outcomes.new++;
          outcome = 'new tree';
        } else {
          const committed = existsSync(path.join(work, pendingFolder, 'journal.json'));
          if (committed) outcomes.midCommit++;
          else outcomes.staged++;
          outcome = committed
            ? 'mid-commit (journal written)'
            : 'pending folder without a journal (before the commit point, or while deleting it)';
          // Not a consistent tree: the pending folder must be there, and --check must say so.
          expect(existsSync(path.join(work, pendingFolder)), label).toBe(true);
          const check = cli(['generate', 'mcp.yaml', '--check']);
          expect(check.code, label).toBe(1);
          expect(check.stderr, label).toMatch(
            /^mcp\.yaml: an interrupted run left .*; run "npx mcp-gen generate mcp\.yaml" to repair it\n$/,
          );
          expect(check.stdout, label).toBe('');
        }
        appendFileSync(
          path.join(base, 'log.txt'),
          `${label}: ${run.killed ? `killed while ${run.phase}` : 'ended before the kill'}, ${outcome}\n`,
        );
        const repair = cli(['generate', 'mcp.yaml']);
        expect(repair.code, `${label}\n${repair.stderr}`).toBe(0);
        const repaired = snapshot(work);
        expect(
          [...repaired.keys()].filter((f) => !newTree.has(f)),
          label,
        ).toEqual([]);
        expect(same(repaired, newTree), label).toBe(true);
      }
      console.log(`kill test: ${JSON.stringify(outcomes)}; kills landed while ${JSON.stringify(landed)}`);
      expect(outcomes.old + outcomes.new + outcomes.staged + outcomes.midCommit).toBe(kills);
      // Aimed at the write phase: most kills land while files are staged or committed.
      expect(landed.staging + landed.committed).toBeGreaterThanOrEqual(Math.ceil(kills / 2));
    },
    120_000 + kills * 300_000,
  );
});
