/**
 * A worker thread's entry point (emit/worker/start.ts): compiles the validators, then type units claimed from the
 * shared counter, posts what it built (or the error's text) back, and ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { compileClaimed, type EmitWork, emitValidatorsOf } from './work.js';

const { next, ...work } = workerData as EmitWork & { next: Int32Array };
try {
  const validators = await emitValidatorsOf(work);
  const typeTexts = await compileClaimed(work.types, next);
  parentPort?.postMessage({ ok: true, validators, typeTexts });
} catch (error) {
  parentPort?.postMessage({
    ok: false,
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
}
