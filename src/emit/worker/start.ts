/**
 * Runs emit's offloadable work (work.ts) on a worker thread when that pays, else on this thread: the result is the
 * same either way. A thread pays for a large manifest on a machine with a second core: starting one loads the
 * compilers again (about 0.1 s) and copies the schemas to it, so a small manifest runs inline.
 * `MCP_GEN_EMIT_WORKER=off` always runs inline, `on` always on a thread (tests use both to compare the bytes).
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { GeneratedFile } from '../shared/files.js';
import { compileClaimed, type EmitWork, type EmitWorkResult, runEmitWork } from './work.js';

/** Fewer schemas than this compile faster than a thread starts (GitHub's description: thousands; Petstore: dozens). */
const minSchemas = 400;

function useWorker(work: EmitWork, mode: string | undefined): boolean {
  if (mode === 'off') return false;
  if (mode === 'on') return true;
  // The types' units are every schema the project compiles: shared ones, each tool's input and output, and so on.
  return work.types.length >= minSchemas && availableParallelism() > 1;
}

/** Work under way: `finish` joins in on this thread once its other emitters are done, and gives the result. */
export interface StartedWork {
  finish(): Promise<EmitWorkResult>;
}

type Answer = { ok: true; validators: GeneratedFile; typeTexts: Map<number, string> } | { ok: false; error: string };

/**
 * Starts `work`: on a worker thread, which compiles the validators and then type units, while this thread builds the
 * other files and then compiles type units too (the two share a counter: emit/worker/work.ts); or, when a thread
 * would not pay or `worker` (the entry script: load/emit-worker.ts) is null, all of it on this thread when `finish`
 * is called.
 */
export function startEmitWork(work: EmitWork, worker: URL | null): StartedWork {
  const mode = process.env.MCP_GEN_EMIT_WORKER;
  const script = useWorker(work, mode) ? worker : null;
  // `on` is a promise that a thread runs the work (tests compare its bytes): no thread to start is an error then.
  if (script === null && mode === 'on') throw new Error('MCP_GEN_EMIT_WORKER=on, but the emit worker is not built');
  if (script === null) return { finish: () => runEmitWork(work) };
  const next = new Int32Array(new SharedArrayBuffer(4));
  const answer = new Promise<Extract<Answer, { ok: true }>>((resolve, reject) => {
    const worker = new Worker(script, { workerData: { ...work, next } });
    let settled = false;
    worker.once('message', (message: Answer) => {
      settled = true;
      if (message.ok) resolve(message);
      else reject(new Error(`emit worker failed: ${message.error}`));
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`emit worker exited with code ${code} before it answered`));
    });
  });
  // A rejection is handled in `finish`; until then it must not count as unhandled.
  answer.catch(() => {});
  return {
    async finish() {
      const mine = await compileClaimed(work.types, next);
      const theirs = await answer;
      const typeTexts = work.types.map((_, i) => {
        const text = mine.get(i) ?? theirs.typeTexts.get(i);
        if (text === undefined) throw new Error(`emit worker: type unit ${i} was compiled by neither thread`);
        return text;
      });
      return { typeTexts, validators: theirs.validators };
    },
  };
}
