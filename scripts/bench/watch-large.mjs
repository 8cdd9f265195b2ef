// `generate --watch` on a large imported API: the same edit as the row "`generate` after editing one tool's
// description" (a new text for the first tool's description every round), saved to a manifest a long-running
// watcher regenerates; one sample is save → the watcher's summary line, printed once every file is written (its
// 50 ms debounce included). It is a variant of the interleaved rounds like the others: the watcher idles while the
// other variants run, and each save waits for the summary before the round goes on.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnNode, stopChild } from '../bench-http/processes.mjs';
import { timeChecked } from './run.mjs';
import { until } from './watch-rows.mjs';

/** The manifest `lines` with the first tool's description ending in `(edit <round>)`, as one text. */
export function editedDescription(lines, round) {
  const edited = [...lines];
  const tools = edited.indexOf('tools:');
  const at = edited.findIndex((line, i) => i > tools && line.startsWith('    description: '));
  // A block scalar's first line, or the plain value itself.
  const line = /^ {4}description: [|>]/.test(edited[at]) ? at + 1 : at;
  edited[line] = `${edited[line]} (edit ${round})`;
  return edited.join('\n');
}

/** The watched project of `spec` in `folder`: imported and generated once, then watched from `start` to `stop`. */
export function watchedEdits(spec, folder, { node, cli, options }) {
  const manifest = path.join(folder, 'mcp.yaml');
  let original = null;
  let child = null;
  let round = 0;
  const lines = [];
  let stderr = '';
  const summaries = () => lines.slice(lines.findIndex((line) => line.startsWith('watching ')) + 1);
  return {
    async start() {
      rmSync(folder, { recursive: true, force: true });
      mkdirSync(folder, { recursive: true });
      timeChecked(node, [cli, 'import', 'openapi', spec, '--out', manifest], options);
      timeChecked(node, [cli, 'generate', manifest], options);
      original = readFileSync(manifest, 'utf8').split('\n');
      child = spawnNode([cli, 'generate', manifest, '--watch'], options.env ?? process.env, { cwd: options.cwd });
      child.stderr.on('data', (chunk) => (stderr += chunk.toString('utf8')));
      createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
      await until(
        () => lines.some((l) => l.startsWith('watching ')) || child.exitCode !== null,
        120_000,
        'no "watching"',
        20,
      );
      if (child.exitCode !== null) throw new Error(`generate --watch exited with ${child.exitCode}:\n${stderr}`);
    },
    async run() {
      await sleep(250); // well past the watcher's debounce: the save before has long been folded
      round += 1;
      const text = editedDescription(original, round);
      const before = summaries().length;
      const start = performance.now();
      writeFileSync(manifest, text);
      await until(() => summaries().length > before, 60_000, 'no summary line');
      const ms = performance.now() - start;
      const summary = summaries().at(-1) ?? '';
      if (/error/i.test(summary)) throw new Error(`generate --watch: ${summary}\n${stderr}`);
      return { ms };
    },
    async stop() {
      if (child === null) return;
      child.kill('SIGINT');
      await stopChild(child);
    },
  };
}
