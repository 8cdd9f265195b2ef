/**
 * The entry script of mcp-gen's worker thread (util/worker-thread.ts starts it): runs the one piece of work in
 * `workerData`, loading only the module its kind needs, posts the result (or the error's text) back, and ends.
 * The work shares its units with the main thread through the counter `next` (shared memory).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ThreadAnswer } from '../util/worker-thread.js';

async function run(work: { kind: string; next: Int32Array } & Record<string, unknown>): Promise<unknown> {
  if (work.kind === 'emit') {
    const { runClaimedEmitWork } = await import('../emit/worker/work.js');
    return runClaimedEmitWork(work as unknown as Parameters<typeof runClaimedEmitWork>[0]);
  }
  throw new Error(`no such work: ${String(work.kind)}`);
}

let answer: ThreadAnswer;
try {
  answer = { ok: true, result: await run(workerData) };
} catch (error) {
  answer = { ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}
parentPort?.postMessage(answer);
