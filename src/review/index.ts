/**
 * review: the design review behind `mcp-gen report` and `mcp-gen check`.
 * In: the model and the validation diagnostics. Out: lint findings, the gate
 * verdict and the tools/list cost; with a baseline model, breaking changes.
 * Pure: no disk, no network.
 */
import type { Diagnostic, Finding } from '../diagnostics/index.js';
import type { ServerModel } from '../model/types.js';
import { evaluateGate, type GateItem } from './gate.js';
import { lintModel } from './lint.js';
import { toolsListCost } from './tokens.js';

export { findBreakingChanges, narrowing } from './breaking.js';
export type { GateItem, GateStatus } from './gate.js';
export { mutatingVerbs } from '../model/verbs.js';

/** Everything the review found. */
export interface Review {
  readonly findings: readonly Finding[];
  readonly gate: readonly GateItem[];
  readonly cost: { readonly bytes: number; readonly tokens: number };
  /** True when any gate item FAILs. */
  readonly failed: boolean;
}

/** Lints the model and evaluates the gate; validation warnings (e.g. approval: none) count too. */
export function reviewModel(model: ServerModel, validation: readonly Diagnostic[]): Review {
  const findings = lintModel(model);
  const fromValidation: Finding[] = validation.map((d) => ({
    code: d.code,
    message: d.message,
    at: { pointer: d.pointer },
  }));
  const gate = evaluateGate(model, [...fromValidation, ...findings]);
  return { findings, gate, cost: toolsListCost(model), failed: gate.some((g) => g.status === 'FAIL') };
}
