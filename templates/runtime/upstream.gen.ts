/**
 * HTTP bindings: the handler of a tool declared with `http:` is one upstream request (shipped only by servers that
 * declare one). The request carries the tool's `ctx.signal` (its deadline and the client's cancel), the credential
 * from the configuration start-up read and checked (no request leaves without it), and the arguments where the
 * binding puts them; with telemetry it is a client span `upstream <METHOD> <path template>`. The answer is untrusted
 * data: read up to a size cap as JSON, text or bytes by its Content-Type, and never interpreted; 4xx is a tool error
 * with the upstream status and message; 5xx, a refusal for the rate of calls (429) and network failures a retryable
 * one (`_meta['mcp-gen/error'].retryable`, call.gen.ts), saying when to retry where the answer does.
 */
import type { ContentBlock, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { sdkResult, ToolError } from './handler.gen.js';
import { lazySchema, type PrecompiledValidators } from './register.gen.js';
import type { RegistrySpec } from './spec.gen.js';
import { logToStderr, redact } from './log.gen.js';
import type { Telemetry } from './startup.gen.js';
import type { Config } from './upstream-credentials.gen.js';
import { buildRequest, sendWithBody } from './upstream-request.gen.js';
import type { HttpBindingSpec, UpstreamSpec } from './upstream-spec.gen.js';
import { chosen, forgetTokens, readVariable, sign } from './upstream-credentials.gen.js';
import {
  type Answer,
  bytesBlock,
  errorBody,
  errorMessage,
  isObject,
  readAnswer,
  readCapped,
  refuseBusy,
  refuseRedirect,
} from './upstream-answer.gen.js';

export type { HttpBindingSpec, UpstreamSpec } from './upstream-spec.gen.js';
export { maxUpstreamBytes } from './upstream-answer.gen.js';

/** What start-up hands this module: the values readConfig returned (typed, defaults applied) and telemetry. */
interface Started {
  readonly config: Config;
  readonly telemetry: Telemetry | null;
}
let started: Started | null = null;

/** Called once at start-up (RuntimeModules.upstream), after the configuration was read and checked. */
export function startUpstream(config: Readonly<Record<string, unknown>>, telemetry: Telemetry | null): void {
  started = { config, telemetry };
}

/** What start-up gave; bound tools only run in a started server. */
function environment(): Started {
  if (started === null) throw new Error('upstream bindings are called before startUpstream ran');
  return started;
}

/** The output check of each bound tool, by tool name: its output schema with its precompiled validator. */
export function answerSchemas(registry: RegistrySpec, validators: PrecompiledValidators) {
  return (tool: string): StandardSchemaWithJSON | null => {
    const json = registry.tools.find((t) => t.name === tool)?.outputSchema ?? null;
    return json === null ? null : lazySchema(json, validators[tool]?.output);
  };
}

/**
 * A 2xx answer that does not match the output schema: the request went out and the upstream accepted it, so the
 * caller must hear that. By default (`outputCheck: warn`) the answer is the result, as received, with the mismatch
 * in `_meta['mcp-gen/warnings']` and the log; with `strict`, a tool error that says the upstream accepted it.
 */
async function checkedAnswer(
  binding: HttpBindingSpec,
  answer: StandardSchemaWithJSON | null,
  status: number,
  result: object,
  content: ContentBlock[] | null = null,
) {
  const verdict = answer === null ? { issues: undefined } : await answer['~standard'].validate(result);
  const structuredContent = result as Record<string, unknown>;
  if (verdict.issues === undefined) return content === null ? result : sdkResult({ content, structuredContent });
  const [issue] = verdict.issues;
  const where = (issue?.path ?? []).map((p) => (typeof p === 'object' ? String(p.key) : String(p))).join('/');
  const mismatch =
    `The upstream API accepted the request (HTTP ${status}), but its answer does not match the tool's output ` +
    `schema${issue === undefined ? '' : ` (${where === '' ? '' : `/${where}: `}${issue.message})`}.`;
  logToStderr(`tool "${binding.tool}": ${mismatch}`);
  const effect = `${mismatch} The request took effect; check before repeating it.`;
  if (binding.outputCheck === 'strict') throw new ToolError(effect);
  // Structured content is an object in MCP (a strict client refuses the whole result otherwise): an answer of
  // another shape is shown as content, after the mismatch, as an error the model reads.
  if (!isObject(result))
    return sdkResult({
      content: [
        { type: 'text' as const, text: effect },
        ...(content ?? [{ type: 'text', text: JSON.stringify(result) }]),
      ],
      isError: true,
      _meta: { 'mcp-gen/warnings': [mismatch] },
    });
  return sdkResult({
    content: content ?? [{ type: 'text' as const, text: JSON.stringify(result) }],
    structuredContent,
    _meta: { 'mcp-gen/warnings': [mismatch] },
  });
}

/**
 * A 2xx answer that is not JSON (`http.accept`): text as the tool's text, bytes as an image, audio or resource
 * block; with `result: wrap` also `{ result }` (the text, or the bytes in base64). A tool whose output is an object
 * refuses it.
 */
function otherAnswer(
  binding: HttpBindingSpec,
  output: StandardSchemaWithJSON | null,
  status: number,
  answer: Exclude<Answer, { kind: 'json' }>,
  url: URL,
) {
  if (binding.structured && binding.result !== 'wrap')
    throw new ToolError(
      `The upstream API answered ${answer.type} (HTTP ${status}), not the JSON object the tool's output schema ` +
        'describes.',
    );
  const content: ContentBlock[] =
    answer.kind === 'text' ? [{ type: 'text', text: answer.text }] : [bytesBlock(answer, url)];
  if (!binding.structured) return answer.kind === 'text' ? answer.text : content;
  const result = { result: answer.kind === 'text' ? answer.text : answer.bytes.toString('base64') };
  return checkedAnswer(binding, output, status, result, content);
}

/**
 * The handler of a bound tool. Its result is the parsed JSON answer (or `{ result }` with `result: wrap`), checked
 * against the tool's output schema by `answer` (checkedAnswer) when the tool has one.
 */
export function bindTool<H>(
  spec: UpstreamSpec,
  binding: HttpBindingSpec,
  output: StandardSchemaWithJSON | null = null,
): H {
  const handler = async (input: Record<string, unknown>, ctx: { readonly signal: AbortSignal }): Promise<unknown> => {
    const { config, telemetry } = environment();
    const variable = binding.baseUrl ?? spec.baseUrl;
    const baseUrl = readVariable(config, variable);
    if (baseUrl === undefined || !URL.canParse(baseUrl))
      throw new ToolError(`The upstream base URL is not configured: set ${variable} to the API's URL.`);
    const credentials = chosen(spec, binding, config);
    const request = buildRequest(binding, baseUrl, input);
    await sign(credentials, config, request.url, request.headers, ctx.signal);
    const exchange = async () => {
      try {
        // fetch refuses a body on GET and HEAD; the spec allows one where the operation defines it.
        const response =
          request.body !== undefined && (binding.method === 'GET' || binding.method === 'HEAD')
            ? await sendWithBody(request.url, binding.method, request.headers, request.body, ctx.signal)
            : await fetch(request.url, {
                method: binding.method,
                headers: request.headers,
                body: request.body ?? null,
                signal: ctx.signal,
                redirect: 'manual',
              });
        await refuseRedirect(response, `The upstream API answered ${binding.method} ${binding.path}`);
        return {
          status: response.status,
          answer: readAnswer(await readCapped(response), response.headers.get('content-type')),
          location: response.headers.get('location'),
          headers: response.headers,
        };
      } catch (error) {
        if (error instanceof ToolError || ctx.signal.aborted) throw error;
        throw new ToolError(
          `The upstream API could not be reached (${binding.method} ${binding.path}); retry later.`,
          'failed',
          true,
        );
      }
    };
    const attributes = { 'http.request.method': binding.method, 'url.template': binding.path };
    const { status, answer, location, headers } = await (telemetry === null
      ? exchange()
      : telemetry.withSpan(`upstream ${binding.method} ${binding.path}`, attributes, exchange, 'client'));
    refuseBusy(status, headers);
    if (status === 401) forgetTokens(credentials, config);
    if (status >= 400) {
      const message = errorMessage(errorBody(answer), binding.errorMessage);
      throw new ToolError(
        `The upstream API refused the call (HTTP ${status})${message === null ? '.' : `: ${message}`}`,
        status === 404 ? 'not_found' : status === 409 ? 'conflict' : 'invalid',
      );
    }
    if (answer.kind !== 'json') return otherAnswer(binding, output, status, answer, request.url);
    if (answer.value === undefined)
      throw new ToolError(`The upstream answer (HTTP ${status}) says ${answer.type}, but is not JSON.`);
    const result = binding.result === 'wrap' ? { result: answer.value } : (answer.value ?? {});
    // An empty answer that names what it made (201 Created, Location) says where, or the model cannot find it; an
    // API may build that URL from the request, credential included, so it is redacted as error messages are.
    const made = answer.value === null && location !== null ? { location: redact(location) } : null;
    if (!binding.structured) return JSON.stringify(made ?? result);
    return output === null ? result : checkedAnswer(binding, output, status, result);
  };
  return handler as unknown as H;
}
