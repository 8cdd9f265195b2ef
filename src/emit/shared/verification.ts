// The contract tests' own declaration: a plan id without its check in contract.gen.test.ts fails to type-check.
import type { PlanItem } from '../../../templates/tests/contract-types.gen.js';
import type { ServerModel } from '../../model/types.js';

/**
 * The verification plan of a server: the checks its generated contract tests
 * cover. The design report lists these names and the contract-test emitter
 * writes tests with exactly these names, so the plan cannot promise a test
 * that does not exist.
 */
export function verificationPlan(model: ServerModel): PlanItem[] {
  const http = model.transports.http !== null;
  const items: PlanItem[] = [
    { id: 'notifications', topic: 'Notifications produce no response', test: 'notifications are never answered' },
    {
      id: 'envelopes',
      topic: 'Malformed envelopes and request ids',
      test: 'malformed envelopes and request ids are rejected',
    },
    { id: 'metadata', topic: 'Metadata rejection', test: 'requests without valid _meta are rejected with -32602' },
    { id: 'discovery', topic: 'Discovery', test: 'server/discover returns the designed contract' },
    {
      id: 'lists',
      topic: 'Deterministic lists',
      test: 'lists are sorted by name, stable and paged (each item once; a foreign cursor is -32602)',
    },
    {
      id: 'version',
      topic: 'Version mismatch',
      test: 'an unsupported version gets -32022 with supported and requested',
    },
  ];
  // Checks that need a handler to run use a read-only tool: a test run never changes data unless it opts in.
  const reader = model.tools.find((t) => t.readOnly && t.approval === 'none');
  items.push({
    id: 'cache',
    ...(reader === undefined ? {} : { target: reader.name }),
    topic: 'Cache fields',
    test: 'lists and discovery carry ttlMs and cacheScope; calls do not',
  });
  // Input validation needs a tool whose input can be violated without knowing its semantics.
  const checkable =
    model.tools.find((t) => Array.isArray(t.input.required) && t.input.required.length > 0) ??
    model.tools.find((t) => t.input.additionalProperties === false);
  if (checkable !== undefined)
    items.push({
      id: 'input',
      target: checkable.name,
      topic: 'Input validation',
      test: 'bad tool input is an isError result naming the field',
    });
  const prompt = model.prompts.find((p) => p.messages !== null && p.arguments.length > 0);
  const writer = model.tools.find((t) => t.approval === 'none');
  const injectable = prompt ?? reader ?? writer;
  if (injectable !== undefined)
    items.push({
      id: 'injection',
      target: injectable.name,
      ...(prompt === undefined && reader === undefined ? { writes: true } : {}),
      topic: 'Prompt injection',
      test: 'instructions inside returned data come back as data, unchanged',
    });
  if (http) {
    items.push({
      id: 'headers',
      topic: 'Header-to-body mismatch',
      test: 'HTTP headers that disagree with the body get -32020',
    });
    items.push({ id: 'origin', topic: 'Origin validation', test: 'a foreign Origin is refused with 403' });
  }
  if (http && model.auth.type !== 'none')
    items.push({
      id: 'auth',
      topic: 'Authorization',
      test: 'requests without a valid token get 401 with resource metadata',
    });
  for (const tool of model.tools.filter((t) => t.approval === 'confirm')) {
    items.push({
      id: 'approval',
      target: tool.name,
      topic: `Approval: ${tool.name}`,
      test: `approval of ${tool.name}: declined, tampered state and changed arguments run nothing`,
    });
    items.push({
      id: 'approved',
      target: tool.name,
      ...(tool.readOnly ? {} : { writes: true }),
      topic: `Approval accepted: ${tool.name}`,
      test: `approval of ${tool.name}: an accepted call runs the handler`,
    });
  }
  for (const handle of model.handles.filter((h) => h.consumedBy.length > 0)) {
    items.push({
      id: 'handle',
      target: handle.name,
      topic: `State handle: ${handle.name}`,
      test: `handle ${handle.name}: forged and expired handles are refused`,
    });
  }
  return items;
}
