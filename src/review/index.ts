/**
 * review: the design review behind `mcp-gen report` and `mcp-gen check`.
 * In: the model and the validation diagnostics. Out: lint findings, the gate
 * verdict and the tools/list cost; with a baseline model, breaking changes.
 * Pure: no disk, no network. With a memo (util/memo.ts), what it found for a tool model it saw before.
 */
import type { Diagnostic, Finding } from '../diagnostics/index.js';
import type { ServerModel } from '../model/types.js';
import { evaluateGate, type GateItem } from './gate.js';
import { type ContextReview, reviewContext } from './context.js';
import { lintModel } from './lint.js';
import { type Memo, noMemo } from '../util/memo.js';

export { findBreakingChanges, narrowing } from './breaking.js';
export type { ContextReview, HostBreak } from './context.js';
export { heaviestFirst } from './context.js';
export type { GateItem, GateStatus } from './gate.js';
export { mutatingVerbs } from '../model/verbs.js';

/** Everything the review found. */
export interface Review {
  readonly findings: readonly Finding[];
  readonly gate: readonly GateItem[];
  /** What the default `tools/list` costs (the tools a deployment lists without choosing toolsets). */
  readonly cost: { readonly bytes: number; readonly tokens: number };
  /** Per tool, with every tool, and the host limits the default surface breaks. */
  readonly context: ContextReview;
  /** True when any gate item FAILs. */
  readonly failed: boolean;
}

/** Lints the model and evaluates the gate; validation warnings (e.g. approval: none) count too. */
export function reviewModel(model: ServerModel, validation: readonly Diagnostic[], memo: Memo = noMemo): Review {
  const context = reviewContext(model, memo);
  const findings = [...lintModel(model, memo), ...context.findings];
  const fromValidation: Finding[] = validation.map((d) => ({
    code: d.code,
    message: d.message,
    at: { pointer: d.pointer },
  }));
  const gate = evaluateGate(model, [...fromValidation, ...findings], context.cost.tokens);
  return { findings, gate, cost: context.cost, context, failed: gate.some((g) => g.status === 'FAIL') };
}
