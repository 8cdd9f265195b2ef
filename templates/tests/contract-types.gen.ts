/**
 * The shape of contract-plan.gen.ts, declared once: mcp-gen builds the plan and the examples against these
 * types, and contract.gen.test.ts runs one check per `CheckId`, so a plan id without its check (or a check
 * the plan never names) fails to type-check on either side.
 */

/** The checks of the verification plan in DESIGN.md, by id. */
export type CheckId =
  | 'notifications'
  | 'envelopes'
  | 'metadata'
  | 'discovery'
  | 'lists'
  | 'version'
  | 'cache'
  | 'input'
  | 'injection'
  | 'headers'
  | 'origin'
  | 'auth'
  | 'approval'
  | 'approved'
  | 'handle';

/** One check of the verification plan in DESIGN.md. */
export interface PlanItem {
  readonly id: CheckId;
  /** The tool, prompt or handle kind the check exercises, when it needs one. */
  readonly target?: string;
  /** The check runs the handler of a tool that is not read-only: only when the run opts in (MCP_GEN_TEST_WRITES=1). */
  readonly writes?: true;
  readonly topic: string;
  /** The exact name of the test in contract.gen.test.ts. */
  readonly test: string;
}

/** handles.gen.ts, imported when the server has handle kinds (else null): its codec mints the samples' handles. */
export type HandlesModule =
  | (() => Promise<{
      readonly HandleCodec: new (
        key: Buffer,
      ) => { issue(kind: string, id: string, principal: string, ttlMs: number): string };
    }>)
  | null;

/** One call of the manifest's `examples` and what it must answer. */
export interface Example {
  readonly kind: 'tool' | 'resource' | 'prompt';
  readonly name: string;
  /** It calls a tool that is not read-only: run only when the run opts in (MCP_GEN_TEST_WRITES=1). */
  readonly writes: boolean;
  /** `{ name, arguments }` for a tool or prompt, `{ uri }` for a resource. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The expected `structuredContent` of a tool, or null. */
  readonly output: unknown;
  /** The expected text of the first content or message, or null. */
  readonly text: string | null;
  /** Text the error must contain, or null for a success. */
  readonly error: string | null;
}
