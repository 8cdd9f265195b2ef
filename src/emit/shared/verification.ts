import type { ServerModel } from '../../model/types.js';

/** One check of the verification plan and the generated contract test that covers it. */
export interface VerificationItem {
  readonly topic: string;
  /** The exact name of the test in `test/contract.gen.test.ts`. */
  readonly test: string;
}

/**
 * The verification plan of a server: the checks its generated contract tests
 * cover. The design report lists these names and the contract-test emitter
 * writes tests with exactly these names, so the plan cannot promise a test
 * that does not exist.
 */
export function verificationPlan(model: ServerModel): VerificationItem[] {
  const http = model.transports.http !== null;
  const items: VerificationItem[] = [
    { topic: 'Notifications produce no response', test: 'notifications are never answered' },
    { topic: 'Malformed envelopes and request ids', test: 'malformed envelopes and request ids are rejected' },
    { topic: 'Metadata rejection', test: 'requests without valid _meta are rejected with -32602' },
    { topic: 'Discovery', test: 'server/discover returns the designed contract' },
    { topic: 'Deterministic lists', test: 'lists are sorted by name and stable' },
    { topic: 'Version mismatch', test: 'an unsupported version gets -32022 with supported and requested' },
    { topic: 'Cache fields', test: 'lists and discovery carry ttlMs and cacheScope; calls do not' },
    { topic: 'Input validation', test: 'bad tool input is an isError result naming the field' },
    { topic: 'Prompt injection', test: 'instructions inside returned data come back as data, unchanged' },
  ];
  if (http) {
    items.push({ topic: 'Header-to-body mismatch', test: 'HTTP headers that disagree with the body get -32020' });
    items.push({ topic: 'Origin validation', test: 'a foreign Origin is refused with 403' });
  }
  if (http && model.auth.type !== 'none') items.push({ topic: 'Authorization', test: 'requests without a valid token get 401 with resource metadata' });
  for (const tool of model.tools.filter((t) => t.approval === 'confirm')) {
    items.push({ topic: `Approval: ${tool.name}`, test: `approval of ${tool.name}: declined, tampered state, changed arguments, accepted` });
  }
  for (const handle of model.handles) {
    items.push({ topic: `State handle: ${handle.name}`, test: `handle ${handle.name}: forged and expired handles are refused` });
  }
  return items;
}
