/**
 * Issue 20, item 3: one run at a time, from load to commit. Two `generate` runs start together over a
 * project whose manifest renames a tool (its handler moves); a handler edit is saved between the first
 * run's plan and its commit, and another right after that commit, while the second run is waiting.
 * Before the lock covered the whole run, the second run applied the plan it had made on the old tree
 * and the edits were lost. The pauses are the write stage's test seam, so every trial is the same.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/config/index.js';
import { generateProject } from '../../src/generate.js';
import { lockName, lockProject, WriteError, type WritePoint } from '../../src/write/index.js';
import { repoRoot, runIn } from '../support/golden.js';

const base = path.join(repoRoot, '.test-out', 'generate-lock');
const seeded = path.join(base, 'seeded');
const dir = path.join(base, 'work');
const tool = (name: string, extra = '') =>
  `  ${name}:\n${extra}    description: Answer with ${name}.\n    annotations: { readOnlyHint: true }\n` +
  '    input: { type: object, additionalProperties: false }\n';
const header = 'mcpGen: 1\nserver: { name: lock, version: 1.0.0 }\ntools:\n';
const oldHandler = 'src/handlers/tools/pong.ts';
const newHandler = 'src/handlers/tools/echo.ts';
const trials = 20;

beforeAll(async () => {
  rmSync(base, { recursive: true, force: true });
  mkdirSync(seeded, { recursive: true });
  writeFileSync(path.join(seeded, 'mcp.yaml'), `${header}${tool('ping')}${tool('pong')}`);
  expect((await runIn(seeded, ['generate'])).code).toBe(0);
  // The next run renames pong to echo: its handler moves from pong.ts to echo.ts.
  writeFileSync(path.join(seeded, 'mcp.yaml'), `${header}${tool('ping')}${tool('echo', '    renamedFrom: pong\n')}`);
});

describe('two generate runs at once', () => {
  it(`keep an edit saved between one run's plan and its commit, and one after it (${trials} trials)`, async () => {
    const options = resolveOptions({ manifest: 'mcp.yaml' }, dir);
    for (let trial = 0; trial < trials; trial++) {
      rmSync(dir, { recursive: true, force: true });
      cpSync(seeded, dir, { recursive: true });
      const before = `// saved before the commit, trial ${trial}\n`;
      const after = `// saved after the commit, trial ${trial}\n`;
      const commits: string[] = [];
      const pause = (p: WritePoint) => {
        if (p.phase === 'commit' && p.index === 0) {
          commits.push('plan');
          // Between the first plan and its commit: the user saves the handler the plan is about to move.
          if (commits.length === 1) writeFileSync(path.join(dir, oldHandler), before, { flag: 'a' });
        }
        // Right after the commit, with the second run waiting: the user edits the moved handler.
        if (p.phase === 'finish') writeFileSync(path.join(dir, newHandler), after, { flag: 'a' });
        return false;
      };
      const [first, second] = await Promise.all([
        generateProject(options, '0.0.0', dir, { crashAt: pause }),
        generateProject(options, '0.0.0', dir),
      ]);
      const label = `trial ${trial}`;
      const text = readFileSync(path.join(dir, newHandler), 'utf8');
      expect(text.endsWith(`${before}${after}`), `${label}\n${text}`).toBe(true);
      // The first run saw its input change at the commit, planned again from the edited file, and moved it.
      expect(commits, label).toEqual(['plan', 'plan']);
      expect(first.ok && second.ok, label).toBe(true);
      expect(
        first.report?.changes.filter((c) => c.kind === 'move').map((c) => `${c.from} -> ${c.path}`),
        label,
      ).toEqual([`${oldHandler} -> ${newHandler}`]);
      // The second run planned on the tree the first one left: nothing to move, nothing to write.
      expect(second.report?.changes, label).toEqual([]);
      expect(existsSync(path.join(dir, oldHandler)), label).toBe(false);
      expect(existsSync(path.join(dir, lockName)), label).toBe(false);
    }
  }, 600_000);
});

describe('the project lock', () => {
  const root = path.join(base, 'lock');

  it('is taken over from a process that no longer runs, and released', async () => {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    // Process ids are below 2^22 on Linux: this one runs nowhere.
    writeFileSync(path.join(root, lockName), '4194304\n');
    const lock = await lockProject(root, 1_000);
    expect(readFileSync(path.join(root, lockName), 'utf8')).toBe(`${process.pid}\n`);
    lock.release();
    expect(existsSync(path.join(root, lockName))).toBe(false);
  });

  it('held by a running process, makes a run wait, then stop with what to do', async () => {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, lockName), `${process.ppid}\n`);
    await expect(lockProject(root, 300)).rejects.toThrow(
      new WriteError(
        `another mcp-gen run (process ${process.ppid}) has been writing this project for 0 s; nothing was ` +
          `changed\n  hint: run again when it ends; if no such run exists, delete "${lockName}"`,
      ),
    );
    expect(readFileSync(path.join(root, lockName), 'utf8')).toBe(`${process.ppid}\n`);
  });

  it('made in a folder that did not exist is removed with that folder when the run wrote nothing', async () => {
    rmSync(root, { recursive: true, force: true });
    const lock = await lockProject(path.join(root, 'a', 'b'));
    expect(existsSync(path.join(root, 'a', 'b', lockName))).toBe(true);
    lock.release();
    expect(existsSync(path.join(root, 'a'))).toBe(false);
  });
});
