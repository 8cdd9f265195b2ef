/**
 * write: the only stage that changes the disk.
 * In: the output folder, the emitted files, the previous run's file list and a
 * mode. Out: the list of actions, applied (write), only compared (check) or
 * only listed (dry-run). Unchanged files are never rewritten, scaffold files
 * never overwritten, and all writes of a run succeed or fail together, even
 * when the process is killed half-way (see apply.ts and recover.ts).
 */
import type { GeneratedFile } from '../emit/index.js';
import { planActions, type WriteAction } from './actions.js';
import { applyActions } from './apply.js';
import type { WriteOptions } from './journal.js';
import { lockProjectSync } from './lock.js';
import { recoverWrites } from './recover.js';

export { PathEscapeError, type ActionKind, type KnownProjectFile, type WriteAction } from './actions.js';
export { applyActions } from './apply.js';
export { causeOf, WriteError } from './errors.js';
export { packPackage } from './pack.js';
export { writeHostConfig } from './host-config.js';
export {
  hashFileBytes,
  pendingFolder,
  SimulatedCrash,
  stampOf,
  type WriteFaults,
  type WriteOptions,
  type WritePoint,
} from './journal.js';
export { lockName, lockProject, type ProjectLock } from './lock.js';
export { inspectWrites, recoverWrites, type Interruption } from './recover.js';

/** What a run did or would do. */
export interface WriteReport {
  readonly actions: readonly WriteAction[];
  /** Actions that change something (everything but `unchanged` and `keep`). */
  readonly changes: readonly WriteAction[];
}

/**
 * Compares, lists or writes `files` under `root` according to `mode`. A
 * writing run holds the project lock (its own, unless the caller holds it)
 * and first repairs what an interrupted run left (`recoverWrites`).
 */
export function writeProject(
  root: string,
  files: readonly GeneratedFile[],
  previouslyGenerated: readonly string[],
  mode: 'write' | 'check' | 'dry-run',
  bannerMark: string,
  options: WriteOptions = {},
): WriteReport {
  const lock = mode === 'write' && options.locked !== true ? lockProjectSync(root) : null;
  try {
    if (mode === 'write') recoverWrites(root, options);
    const actions = planActions(root, files, previouslyGenerated, bannerMark, { known: options.known });
    const changes = actions.filter((a) => a.kind !== 'unchanged' && a.kind !== 'keep');
    if (mode === 'write' && changes.length > 0) applyActions(root, changes, options);
    return { actions, changes };
  } finally {
    lock?.release();
  }
}
