// `generate --watch` latency: one long-running watcher on a copy of the 11-tool manifest; each
// round saves the manifest with one tool description changed and times, from the save, (1) until
// a generated file holds the new text and (2) until the watcher prints its next line on stdout (its
// one-line summary, printed once every file is written). Bounded: 60 s to start, 10 s per save.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnNode, stopChild } from '../bench-http/processes.mjs';
import { tasksManifest } from './generate-rows.mjs';

const ANCHOR = 'description: Read one task by its id.';
const revised = (text, i) => text.replace(ANCHOR, `description: Read one task by its id (revision ${i}).`);

/** Every file under `dir` whose text contains `needle`, generated files first, in byte order. */
function filesContaining(dir, needle) {
  const found = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.yaml'))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name))
    .filter((file) => readFileSync(file, 'utf8').includes(needle));
  const rank = (file) => (file.includes('generated') ? 0 : 1);
  return found.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Waits, polling every `everyMs`, until `check()` holds; throws after `timeoutMs` naming `what`. */
export async function until(check, timeoutMs, what, everyMs = 2) {
  const start = performance.now();
  while (!check()) {
    if (performance.now() - start > timeoutMs) throw new Error(`generate --watch: ${what} within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
  return performance.now() - start;
}

/** Runs `runs + discard` saves against one watcher; returns the two latency rows. */
export async function benchWatch({ root, scratch, runs, discard, progress }) {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  const manifest = path.join(scratch, 'mcp.yaml');
  const base = readFileSync(tasksManifest, 'utf8');
  if (!base.includes(ANCHOR)) throw new Error(`${tasksManifest} no longer contains "${ANCHOR}"`);
  copyFileSync(tasksManifest, manifest);
  writeFileSync(manifest, revised(base, 0));

  const child = spawnNode([path.join(root, 'bin', 'mcp-gen.js'), 'generate', manifest, '--watch'], process.env);
  const lines = [];
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk.toString('utf8')));
  createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
  // Every stdout line after "watching" reports one finished run, whatever its wording.
  const summaries = () => lines.slice(lines.findIndex((line) => line.startsWith('watching ')) + 1);
  const written = [];
  const finished = [];
  try {
    await until(
      () => lines.some((line) => line.startsWith('watching ')) || child.exitCode !== null,
      60_000,
      'no "watching" line',
      20,
    );
    if (child.exitCode !== null)
      throw new Error(`generate --watch exited with ${child.exitCode}:\n${lines.join('\n')}\n${stderr}`);
    const target = filesContaining(scratch, '(revision 0)')[0];
    if (target === undefined) throw new Error('generate --watch: no generated file holds the tool description');
    for (let i = 1; i <= runs + discard; i++) {
      await sleep(250); // well past the watcher's debounce, so every save is its own event
      const before = summaries().length;
      const marker = `(revision ${i})`;
      const start = performance.now();
      writeFileSync(manifest, revised(base, i));
      await until(
        () => readFileSync(target, 'utf8').includes(marker),
        10_000,
        `${path.basename(target)} did not change`,
      );
      const toFile = performance.now() - start;
      await until(() => summaries().length > before, 10_000, 'no summary line');
      const toSummary = performance.now() - start;
      const summary = summaries().at(-1);
      if (/error/i.test(summary)) throw new Error(`generate --watch: ${summary}\n${stderr}`);
      if (i > discard) {
        written.push(toFile);
        finished.push(toSummary);
      }
      progress(i, runs + discard);
    }
  } finally {
    child.kill('SIGINT');
    await stopChild(child);
  }
  return [
    {
      figure: '`generate --watch`: save → a generated file holds the change',
      unit: 'ms',
      ours: written,
      target: { max: 300 },
    },
    { figure: '`generate --watch`: save → its summary line (every file written)', unit: 'ms', ours: finished },
  ];
}
