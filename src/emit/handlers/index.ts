/**
 * The handler files of a run: a stub for each new entry, a check of each kept file, a safe rename of
 * each renamed one. Checking and renaming parse the file with ts-morph, whose compiler is slow to load
 * and is loaded only when some check's verdict is not known yet: the caller may hand in verdicts it
 * remembers (by `handlerCheckKey`), and each verdict this run reaches is set in the same table, a stub's
 * included, since checking a stub finds nothing (test/unit/handler-checks.test.ts).
 */
import type { Finding } from '../../diagnostics/index.js';
import type { ServerModel } from '../../model/types.js';
import type { HandlerPlan, Plan } from '../../plan/index.js';
import { hashText } from '../../util/hash.js';
import type { GeneratedFile } from '../shared/files.js';
import { emitStub } from './stubs.js';

/** The handler files to write and the findings of the checks. */
export interface HandlerFiles {
  readonly files: readonly GeneratedFile[];
  readonly findings: readonly Finding[];
}

/**
 * What checking a handler file finds, by `handlerCheckKey`: read for verdicts known before the run (none, in a
 * plain `Map`), and given each verdict of this run (a kept file's findings, a new stub's none).
 */
export interface HandlerVerdicts {
  get(key: string): readonly Finding[] | undefined;
  set(key: string, findings: readonly Finding[]): void;
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
  verdicts: HandlerVerdicts,
): Promise<HandlerFiles> {
  const files: GeneratedFile[] = [];
  const findings: Finding[] = [];
  // Each kept file's key, hashed once, and its verdict if known: they decide whether the compiler is loaded at all.
  const kept = new Map(
    plan.handlers
      .filter((h) => h.action === 'keep')
      .map((h) => {
        const key = handlerCheckKey(h, existing.get(h.path) ?? '');
        return [h, { key, known: verdicts.get(key) }] as const;
      }),
  );
  const parse =
    plan.handlers.some((h) => h.action === 'rename') || [...kept.values()].some((k) => k.known === undefined);
  const reconcile = parse ? await import('./reconcile.js') : null;
  for (const handler of plan.handlers) {
    const check = kept.get(handler);
    if (handler.action === 'bind') continue;
    if (handler.action === 'create') {
      const stub = emitStub(model, handler);
      files.push(stub);
      verdicts.set(handlerCheckKey(handler, stub.contents), []);
    } else if (check !== undefined) {
      const found = check.known ?? reconcile?.checkHandler(handler, existing.get(handler.path) ?? '').findings ?? [];
      verdicts.set(check.key, found);
      findings.push(...found);
    } else if (reconcile !== null) {
      const result = reconcile.renameHandler(handler, existing.get(handler.from?.path ?? '') ?? '');
      findings.push(...result.findings);
      if (result.file !== null) files.push(result.file);
    }
  }
  return { files, findings };
}
