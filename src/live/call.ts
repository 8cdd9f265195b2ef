/**
 * The requests of `mcp-gen call`, `read` and `prompt`, each in a session of
 * its own (session.ts). A server's refusal (a JSON-RPC error) and a missing
 * tool become a CallError whose message says what happened; a tool's error
 * result is a result, marked `failed`.
 */
import { ProtocolError } from '@modelcontextprotocol/client';
import { suggestClosest } from '../util/suggest.js';
import type { Asking } from './answer.js';
import { buildArguments, promptArguments } from './arguments.js';
import { openSession, type Answerer, type Session, type SessionTarget } from './session.js';

/** A request the server refused, or that could not be made; the message is for the user. */
export class CallError extends Error {}

/** What a request returned: the result as the client got it, and whether it is a tool's error result. */
export interface CallOutcome {
  readonly result: unknown;
  readonly failed: boolean;
}

/** Builds who answers the server's questions, once what is being asked about is known. */
export type AnswererFor = (asking: Asking) => Answerer;

/** Per-request options: a generous timeout, since an approval waits for a person. */
const requestOptions = { timeout: 10 * 60_000 } as const;

/** The key of the server's own description, which 2026-07-28 servers repeat in every result's `_meta`. */
const serverInfoKey = 'io.modelcontextprotocol/serverInfo';

/** The result without the repeated server description (it says nothing about this call). */
function withoutServerInfo(result: unknown): unknown {
  if (result === null || typeof result !== 'object' || !('_meta' in result)) return result;
  const { _meta, ...rest } = result as { _meta?: Record<string, unknown> };
  const { [serverInfoKey]: _info, ...meta } = _meta ?? {};
  return Object.keys(meta).length === 0 ? rest : { _meta: meta, ...rest };
}

async function inSession(
  target: SessionTarget,
  answerer: Answerer,
  work: (session: Session) => Promise<CallOutcome>,
): Promise<CallOutcome> {
  const session = await openSession(target, answerer);
  try {
    const outcome = await work(session);
    return { result: withoutServerInfo(outcome.result), failed: outcome.failed };
  } catch (error) {
    if (error instanceof ProtocolError) throw new CallError(`the server answered ${error.code}: ${error.message}`);
    throw error;
  } finally {
    await session.close();
  }
}

/** `tools/call` of `tool`, with arguments from `json` and `pairs` read by the tool's input schema. */
export function callTool(
  target: SessionTarget,
  tool: string,
  input: { readonly json?: string; readonly pairs: readonly string[] },
  answererFor: AnswererFor,
): Promise<CallOutcome> {
  // The arguments are known only after tools/list; the answerer reads them when a question comes.
  const asking = { what: `tool "${tool}"`, arguments: {} as Record<string, unknown> };
  return inSession(
    target,
    (question) => answererFor(asking)(question),
    async ({ client }) => {
      const { tools } = await client.listTools(undefined, requestOptions);
      const found = tools.find((t) => t.name === tool);
      if (found === undefined) {
        const names = tools.map((t) => t.name);
        const near = suggestClosest(tool, names);
        throw new CallError(
          `the server has no tool "${tool}"${near === undefined ? '' : `; did you mean "${near}"?`} ` +
            `(tools: ${names.join(', ') || 'none'})`,
        );
      }
      asking.arguments = buildArguments(input.json, input.pairs, found.inputSchema);
      const result = await client.callTool({ name: tool, arguments: asking.arguments }, requestOptions);
      return { result, failed: result.isError === true };
    },
  );
}

/** `resources/read` of `uri`. */
export function readResource(target: SessionTarget, uri: string, answererFor: AnswererFor): Promise<CallOutcome> {
  return inSession(target, answererFor({ what: `resource ${uri}`, arguments: {} }), async ({ client }) => ({
    result: await client.readResource({ uri }, requestOptions),
    failed: false,
  }));
}

/** `prompts/get` of `name` with `key=value` arguments. */
export function getPrompt(
  target: SessionTarget,
  name: string,
  pairs: readonly string[],
  answererFor: AnswererFor,
): Promise<CallOutcome> {
  const args = promptArguments(pairs);
  return inSession(target, answererFor({ what: `prompt "${name}"`, arguments: args }), async ({ client }) => ({
    result: await client.getPrompt({ name, arguments: args }, requestOptions),
    failed: false,
  }));
}

/** What `completion/complete` completes: a resource template's variable or a prompt's argument. */
export type CompletionRef =
  | { readonly type: 'ref/resource'; readonly uri: string }
  | { readonly type: 'ref/prompt'; readonly name: string };

/** The values the server offers for `argument` of `ref`, given the other arguments typed so far. */
export async function completeArgument(
  target: SessionTarget,
  ref: CompletionRef,
  argument: { readonly name: string; readonly value: string },
  others: Readonly<Record<string, string>>,
): Promise<readonly string[]> {
  const outcome = await inSession(
    target,
    async () => ({ action: 'decline' }),
    async ({ client }) => ({
      result: await client.complete({ ref, argument, context: { arguments: { ...others } } }, requestOptions),
      failed: false,
    }),
  );
  const values = (outcome.result as { completion?: { values?: unknown } }).completion?.values;
  return Array.isArray(values) ? values.filter((value): value is string => typeof value === 'string') : [];
}
