/**
 * One piece of work on a worker thread (src/worker/entry.ts runs it): the promise settles with what the thread
 * answered, or rejects with its error, its crash, or its exit before answering. `data` goes over by structured
 * clone, which keeps objects shared within it shared.
 */
import { Worker } from 'node:worker_threads';

/** What the entry script posts back, once. */
export type ThreadAnswer =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly error: string };

/** How the work is named to the entry script, which loads the module for `kind` only. */
export type ThreadWork = { readonly kind: 'emit' } & Readonly<Record<string, unknown>>;

export function runOnThread<T>(script: URL, work: ThreadWork): Promise<T> {
  const answer = new Promise<T>((resolve, reject) => {
    const worker = new Worker(script, { workerData: work });
    let settled = false;
    worker.once('message', (message: ThreadAnswer) => {
      settled = true;
      if (message.ok) resolve(message.result as T);
      else reject(new Error(`${work.kind} thread failed: ${message.error}`));
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`${work.kind} thread exited with code ${code} before it answered`));
    });
  });
  // Handled where it is awaited, usually after this thread's own share of the work: not an unhandled rejection.
  answer.catch(() => {});
  return answer;
}

/**
 * Whether to use a thread: `MCP_GEN_WORKER=off` never, `on` always (the tests compare the bytes both give), else
 * when the work is large enough (`large`) and the machine has a second core.
 */
export function wantsThread(large: boolean, availableCores: number): boolean {
  const mode = process.env.MCP_GEN_WORKER;
  if (mode === 'off') return false;
  if (mode === 'on') return true;
  return large && availableCores > 1;
}

/** `MCP_GEN_WORKER=on` promises a thread: no entry script to start one is an error then, not a silent fallback. */
export function requireScriptIfForced(script: URL | null): void {
  if (script === null && process.env.MCP_GEN_WORKER === 'on')
    throw new Error('MCP_GEN_WORKER=on, but the worker thread entry script is not built');
}
