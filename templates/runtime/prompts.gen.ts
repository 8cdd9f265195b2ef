/**
 * Prompts: registration (with completions of arguments), fixed messages with
 * `{{argument}}` placeholders, and the call of one prompt handler. Only
 * projects whose manifest declares prompts contain this module.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  completable,
  type GetPromptResult,
  type InputRequiredResult,
  type ServerContext,
  type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import { SdkResult, ToolError, type PromptMessageReply } from './handler.gen.js';
import type { AnyPromptHandler, Registrar } from './register.gen.js';
import { describe, handlerContext, passThrough, type CallEnv } from './call.gen.js';
import { routeCompletions, type AnyCompleteHandler } from './dynamic.gen.js';
import type { PromptSpec, RegistrySpec } from './spec.gen.js';

/** Replaces `{{name}}` placeholders with argument values; a missing optional argument becomes "". */
export function renderText(text: string, args: Readonly<Record<string, string | undefined>>): string {
  return text.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (_match, name: string) => args[name] ?? '');
}

/** Renders a prompt from its fixed messages, or calls its handler. */
export async function callPrompt(
  spec: PromptSpec,
  handler: AnyPromptHandler | undefined,
  args: Record<string, string | undefined>,
  ctx: ServerContext,
  env: CallEnv,
): Promise<GetPromptResult | InputRequiredResult> {
  const description = spec.listing.description === undefined ? {} : { description: spec.listing.description };
  let messages: readonly PromptMessageReply[];
  if (spec.messages !== null) {
    messages = spec.messages.map((m) => ({ role: m.role, text: renderText(m.text, args) }));
  } else if (handler === undefined) {
    throw new ProtocolError(ProtocolErrorCode.InternalError, `The prompt "${spec.name}" has no handler.`);
  } else {
    try {
      const reply = await handler(args as never, handlerContext(ctx, env) as never);
      if (reply instanceof SdkResult) return await passThrough(reply, ctx, env);
      messages = reply;
    } catch (error) {
      // The error model (ToolError's kind): a bad argument or a missing thing is -32602, the rest -32603, with the
      // handler's message.
      const invalid = error instanceof ToolError && (error.kind === 'invalid' || error.kind === 'not_found');
      if (error instanceof ToolError)
        throw new ProtocolError(
          invalid ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError,
          error.message,
        );
      env.log(`prompt "${spec.name}" failed: ${describe(error)}`);
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `Getting prompt "${spec.name}" failed. Details were logged on the server.`,
      );
    }
  }
  return {
    ...description,
    messages: messages.map((m) => ({
      role: m.role,
      content: 'content' in m ? m.content : { type: 'text', text: m.text },
    })),
  };
}

/**
 * A Standard Schema over `json` with a hand-written `validate`: compiling a JSON Schema with ajv costs milliseconds at
 * start-up.
 */
function standardSchema(
  json: Record<string, unknown>,
  validate: StandardSchemaWithJSON['~standard']['validate'],
): StandardSchemaWithJSON {
  return {
    '~standard': { version: 1, vendor: 'mcp-gen', validate, jsonSchema: { input: () => json, output: () => json } },
  } as StandardSchemaWithJSON;
}

/** ajv's JSON Pointer segment for a property name, as its messages print it. */
const pointer = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The SDK's verdict on a prompt's arguments, which are all strings, and the message its ajv validator
 * (`fromJsonSchema`, every
 * error) would give, in ajv's order: required properties, then each property's type.
 * test/unit/validators-equivalence.test.ts
 * compares the two on a seeded corpus.
 */
export function promptArgsValidator(prompt: PromptSpec): StandardSchemaWithJSON['~standard']['validate'] {
  return (value: unknown) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return { issues: [{ message: 'data must be object' }] };
    const args = value as Record<string, unknown>;
    const missing = prompt.arguments
      .filter((a) => a.required && args[a.name] === undefined)
      .map((a) => `data must have required property '${a.name}'`);
    const mistyped = prompt.arguments
      .filter((a) => args[a.name] !== undefined && typeof args[a.name] !== 'string')
      .map((a) => `data/${pointer(a.name)} must be string`);
    const errors = [...missing, ...mistyped];
    return errors.length === 0 ? { value } : { issues: [{ message: errors.join(', ') }] };
  };
}

/**
 * The argument schema of a prompt. The SDK finds argument completers on
 * `argsSchema.shape[name]` (the shape of a Zod object); a JSON Schema wrapper
 * has none, so one is attached holding a `completable` string schema per
 * argument with declared values. The SDK registers `completion/complete` when it sees one.
 */
function argsSchema(prompt: PromptSpec): StandardSchemaWithJSON {
  const properties: Record<string, unknown> = {};
  const shape: Record<string, unknown> = {};
  const isString = (value: unknown) =>
    typeof value === 'string' ? { value } : { issues: [{ message: 'data must be string' }] };
  for (const arg of prompt.arguments) {
    properties[arg.name] =
      arg.description === null ? { type: 'string' } : { type: 'string', description: arg.description };
    const values = prompt.complete?.includes(arg.name) === true ? [] : arg.completions;
    // A handler's argument gets an empty SDK completer, so the SDK serves completion/complete; routeCompletions
    // answers it from the handler first.
    if (values !== null)
      shape[arg.name] = completable(
        standardSchema({ type: 'string' }, isString) as StandardSchemaWithJSON<string>,
        (typed: string) => values.filter((v) => v.startsWith(typed ?? '')),
      );
  }
  const required = prompt.arguments.filter((a) => a.required).map((a) => a.name);
  const schema = standardSchema({ type: 'object', properties, required }, promptArgsValidator(prompt));
  return Object.keys(shape).length === 0 ? schema : Object.assign(schema, { shape });
}

/** Registers every prompt of `registry`; their argument schemas are compiled here, once per process. */
export function promptRegistrar(registry: RegistrySpec): Registrar {
  const schemas = new Map(registry.prompts.map((prompt) => [prompt.name, argsSchema(prompt)]));
  return (server, handlers, env) => {
    for (const prompt of registry.prompts) {
      const handler = handlers.prompts[prompt.name];
      const metadata = {
        ...prompt.listing,
        argsSchema: schemas.get(prompt.name) as StandardSchemaWithJSON,
      };
      server.registerPrompt(prompt.name, metadata, (args: unknown, ctx: ServerContext) =>
        callPrompt(prompt, handler, args as Record<string, string | undefined>, ctx, env),
      );
    }
    const completers = registry.prompts.flatMap((prompt) =>
      (prompt.complete ?? []).map(
        (arg) =>
          [
            `${prompt.name}\n${arg}`,
            {
              handler: handlers.promptCompletions?.[prompt.name] as AnyCompleteHandler | undefined,
              of: `prompt "${prompt.name}"`,
            },
          ] as const,
      ),
    );
    routeCompletions(server, 'ref/prompt', new Map(completers), env);
  };
}
