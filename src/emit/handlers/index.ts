/**
 * The handler files of a run: a stub for each new entry, a check of each kept file, a safe rename of
 * each renamed one. Checking and renaming parse the file with ts-morph, whose compiler takes about a
 * second to load; a kept file whose exact text was checked before (against the same entry, by the same
 * mcp-gen) reuses that outcome instead, and so does a stub written by an earlier run, whose check is
 * known to find nothing (test/unit/handler-checks.test.ts). So only a handler file that changed since
 * the last run loads the compiler.
 */
import type { Finding } from '../../diagnostics/index.js';
import type { HandlerChecks } from '../../load/project.js';
import type { ServerModel } from '../../model/types.js';
import type { HandlerPlan, Plan } from '../../plan/index.js';
import { hashText } from '../../util/hash.js';
import type { GeneratedFile } from '../shared/files.js';
import { emitStub } from './stubs.js';

/** The handler files to write, the findings of the checks, and every check outcome worth keeping. */
export interface HandlerFiles {
  readonly files: readonly GeneratedFile[];
  readonly findings: readonly Finding[];
  /** By `handlerCheckKey`: each kept file's outcome and each new stub's (none), for the next run. */
  readonly checks: HandlerChecks;
}

/** What a check of `text` for `plan` depends on besides mcp-gen itself, hashed. */
export function handlerCheckKey(plan: HandlerPlan, text: string): string {
  return hashText(JSON.stringify([plan.kind, plan.name, plan.path, plan.handler, plan.handlerType, text]));
}

/** Stubs, checks and renames for every handler of the plan; `existing` holds the handler files' texts. */
export async function emitHandlers(
  model: ServerModel,
  plan: Plan,
  existing: ReadonlyMap<string, string>,
  checked: HandlerChecks,
): Promise<HandlerFiles> {
  const files: GeneratedFile[] = [];
  const findings: Finding[] = [];
  const checks = new Map<string, readonly Finding[]>();
  // Each kept file's key, hashed once: the cached outcome decides whether the compiler is loaded at all.
  const kept = new Map(
    plan.handlers
      .filter((h) => h.action === 'keep')
      .map((h) => [h, handlerCheckKey(h, existing.get(h.path) ?? '')] as const),
  );
  const parse = plan.handlers.some((h) => h.action === 'rename') || [...kept.values()].some((k) => !checked.has(k));
  const reconcile = parse ? await import('./reconcile.js') : null;
  for (const handler of plan.handlers) {
    const key = kept.get(handler);
    if (handler.action === 'bind') continue;
    if (handler.action === 'create') {
      const stub = emitStub(model, handler);
      files.push(stub);
      checks.set(handlerCheckKey(handler, stub.contents), []);
    } else if (key !== undefined) {
      const found =
        checked.get(key) ?? reconcile?.checkHandler(handler, existing.get(handler.path) ?? '').findings ?? [];
      checks.set(key, found);
      findings.push(...found);
    } else if (reconcile !== null) {
      const result = reconcile.renameHandler(handler, existing.get(handler.from?.path ?? '') ?? '');
      findings.push(...result.findings);
      if (result.file !== null) files.push(result.file);
    }
  }
  return { files, findings, checks };
}
