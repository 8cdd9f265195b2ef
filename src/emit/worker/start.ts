/**
 * Runs emit's offloadable work (work.ts) on a worker thread when that pays, else on this thread: the result is the
 * same either way. A thread pays for a large manifest on a machine with a second core: starting one loads the
 * compilers again (about 0.1 s) and copies the schemas to it, so a small manifest runs inline.
 */
import { availableParallelism } from 'node:os';
import { requireScriptIfForced, runOnThread, wantsThread } from '../../util/worker-thread.js';
import type { GeneratedFile } from '../shared/files.js';
import { compileClaimed, type EmitWork, type EmitWorkResult, runEmitWork } from './work.js';

/** Fewer schemas than this compile faster than a thread starts (GitHub's description: thousands; Petstore: dozens). */
const minSchemas = 400;

/** Work under way: `finish` joins in on this thread once its other emitters are done, and gives the result. */
export interface StartedWork {
  finish(): Promise<EmitWorkResult>;
}

/**
 * Starts `work`: on a worker thread, which compiles the validators and then type units, while this thread builds the
 * other files and then compiles type units too (the two share a counter: emit/worker/work.ts); or, when a thread
 * would not pay or `worker` (the entry script: load/worker-script.ts) is null, all of it on this thread when
 * `finish` is called.
 */
export function startEmitWork(work: EmitWork, worker: URL | null): StartedWork {
  // The types' units are every schema the project compiles: shared ones, each tool's input and output, and so on.
  const script = wantsThread(work.types.length >= minSchemas, availableParallelism()) ? worker : null;
  if (script === null) {
    requireScriptIfForced(worker);
    return { finish: () => runEmitWork(work) };
  }
  const next = new Int32Array(new SharedArrayBuffer(4));
  const answer = runOnThread<{ validators: GeneratedFile; typeTexts: Map<number, string> }>(script, {
    kind: 'emit',
    ...work,
    next,
  });
  return {
    async finish() {
      const mine = await compileClaimed(work.types, next);
      const theirs = await answer;
      const typeTexts = work.types.map((_, i) => {
        const text = mine.get(i) ?? theirs.typeTexts.get(i);
        if (text === undefined) throw new Error(`emit: type unit ${i} was compiled by neither thread`);
        return text;
      });
      return { typeTexts, validators: theirs.validators };
    },
  };
}
