/**
 * The tool of one OpenAPI operation: title and description from its summary and description, its input from
 * the parameters and the request body, its output from the 2xx response, and its `http:` binding.
 */
import { answerKind, mediaRangesPattern } from '../model/media.js';
import { compareText } from '../util/compare.js';
import { isRecord, stringOr } from '../util/guards.js';
import { quote } from './names.js';
import { httpBinding } from './openapi-binding.js';
import { placeParameters, routeNames, routePath } from './openapi-route.js';
import type { SecurityDraft } from './openapi-security.js';
import { type HttpMethod, type OperationPolicy, titleFromName } from './openapi-operation.js';
import {
  type ArgumentEntry,
  multipartFiles,
  parameterInputs,
  parameterSchema,
  propertyName,
  type RequestMedia,
  requestMedia,
} from './openapi-request.js';
import { withDescription } from './openapi-repairs.js';
import type { SchemaConverter, SchemaFindings } from './openapi-schema.js';
import { inputBudget, outputBudget } from './schema-budget.js';

type Raw = Readonly<Record<string, unknown>>;

export const maxDescription = 2000;

const mediaRanges = new RegExp(mediaRangesPattern);

export interface Operation {
  readonly method: HttpMethod;
  readonly route: string;
  readonly item: Raw;
  readonly operation: Raw;
  readonly name: string;
  readonly policy: OperationPolicy;
  /** Whether the document's OpenAPI applies an Encoding Object's style fields to a multipart part (3.1, not 3.0). */
  readonly styledParts: boolean;
}

/** The tool of one operation, and the note that says where each of its arguments goes in the request. */
export function operationTool(
  op: Operation,
  converter: SchemaConverter,
  findings: SchemaFindings,
  security: SecurityDraft,
): { tool: Record<string, unknown>; binding: string | null; problems: string[]; secrets: string[] } {
  const { method, route, operation } = op;
  const summary = stringOr(operation.summary)?.trim() ?? '';
  const details = stringOr(operation.description)?.trim() ?? '';
  const description = [summary, details].filter((t, i, all) => t !== '' && all.indexOf(t) === i).join('\n\n');
  const tool: Record<string, unknown> = {};
  tool.title = summary === '' ? titleFromName(op.name) : summary.slice(0, 200);
  tool.description = (description === '' ? `${method.toUpperCase()} ${route}` : description).slice(0, maxDescription);
  tool.annotations = op.policy.annotations;
  if (op.policy.approval !== null) tool.approval = op.policy.approval;
  const { schema, args, media, problems, secrets, unbuilt } = inputSchema(op, converter, findings, security);
  tool.input = schema;
  const answer = answerOf(operation, converter);
  const output = outputSchema(answer.schema, converter, findings);
  if (output !== null) tool.output = output.schema;
  const wrapped = output?.wrapped ?? false;
  const sent = routePath(route, args);
  const { http, todo } = httpBinding({
    method,
    route: sent.path,
    args,
    media,
    wrapped,
    accept: answer.accept,
    security: security.securityOf(operation, secrets),
  });
  if (unbuilt) problems.push('its path cannot be built without that parameter, so it has no http binding');
  else tool.http = http;
  const at = `tool ${quote(op.name)} (${method.toUpperCase()} ${route})`;
  const moved = secrets.map((p) => `${String(p.in)} ${quote(String(p.name))}`);
  return { tool, binding: todo, problems: [...problems, ...sent.problems].map((p) => `${at}: ${p}`), secrets: moved };
}

/**
 * Path, query, header and cookie parameters as properties; a request body as
 * `body`. `args` keeps each argument's location and `media` the body's media
 * type: what the tool's `http:` binding needs.
 */
function inputSchema(
  op: Operation,
  converter: SchemaConverter,
  findings: SchemaFindings,
  security: SecurityDraft,
): {
  schema: Record<string, unknown>;
  args: Map<string, ArgumentEntry>;
  media: RequestMedia | null;
  problems: string[];
  secrets: Raw[];
  unbuilt: boolean;
} {
  const refs = new Set<string>();
  // Operation parameters override path-item ones with the same name and location.
  const params = new Map<string, Raw>();
  for (const list of [op.item.parameters, op.operation.parameters]) {
    for (const entry of Array.isArray(list) ? list : []) {
      const p = converter.follow(entry);
      if (p !== null) params.set(`${String(p.in)}:${String(p.name)}`, p);
    }
  }
  // A `{name}` of the route that no parameter declares is still a value the request needs: a string input (sent
  // where the route puts it). A path parameter the path has no `{name}` for (a spec's mistake) goes where the route's
  // query puts it, or nowhere (openapi-route.ts).
  const undeclared = routeNames(op.route).filter((name) => !params.has(`path:${name}`) && !params.has(`query:${name}`));
  for (const name of undeclared)
    params.set(`path:${name}`, { name, in: 'path', required: true, schema: { type: 'string' } });
  const { placed, moved, unplaced } = placeParameters(op.route, [...params.values()]);
  // Parameters that carry credentials become config variables (the binding sends them), never tool inputs.
  const secrets = placed.filter((p) => security.carriesCredential(p));
  const inputs = placed.filter((p) => !secrets.includes(p));
  const { properties, required, args, problems, unbuilt } = parameterInputs(inputs, (p) => {
    const raw = parameterSchema(p);
    const schema = raw === null ? { type: 'string' } : converter.part(raw, refs, findings);
    const described = stringOr(p.description);
    return described === undefined ? schema : withDescription(schema, described);
  });
  const body = converter.follow(op.operation.requestBody);
  const media = body === null ? null : requestMedia(body.content, op.styledParts);
  // A text or bytes body is one string input: base64 for bytes, which a model cannot write as they are.
  const single = media?.sendable === true && (media.kind === 'text' || media.kind === 'bytes');
  if (media !== null && (media.schema !== null || single)) {
    const bytes = single && media.kind === 'bytes';
    const schema = bytes
      ? { type: 'string', contentEncoding: 'base64' }
      : media.schema === null
        ? { type: 'string' }
        : converter.part(
            media.kind === 'multipart' ? multipartFiles(media.schema, (v) => converter.follow(v)) : media.schema,
            refs,
            findings,
          );
    const spec = stringOr(body?.description) ?? (bytes ? stringOr(media.schema?.description) : undefined);
    const described = bytes ? `${spec === undefined ? '' : `${spec} `}(the ${media.type} bytes, base64)` : spec;
    const name = propertyName('body', 'request', new Set(Object.keys(properties)));
    properties[name] = described === undefined ? schema : withDescription(schema, described);
    if (body?.required === true) required.push(name);
    args.set(name, 'body');
  }
  const root = {
    type: 'object',
    additionalProperties: false,
    ...(required.length > 0 ? { required: [...new Set(required)].sort(compareText) } : {}),
    properties,
  };
  const schema = converter.withShared(root, refs, inputBudget, findings.prunedInput);
  if (media !== null) problems.push(...media.unsent);
  if (media !== null && media.lost.length > 0)
    problems.push(
      `body ${media.lost.join(', ')} of Swagger 2.0 has no form style a binding sends; each item is sent ` +
        'as its own member (write a handler if the API reads one joined value)',
    );
  for (const name of undeclared)
    problems.push(`the route has {${name}}, which the spec declares no parameter for; the tool takes it as a string`);
  for (const p of moved)
    problems.push(
      `parameter ${quote(String(p.name))} is declared in the query, but the path has {${String(p.name)}}, ` +
        'which a URL cannot keep as written; it is sent in the path (check the spec, correct it with --overlay)',
    );
  for (const p of unplaced)
    problems.push(
      `parameter ${quote(String(p.name))} goes to the path, which has no {${String(p.name)}}; it is left out of the ` +
        'tool (correct the spec with --overlay, or write a handler)',
    );
  return { schema, args, media: media?.schema === null && !single ? null : media, problems, secrets, unbuilt };
}

/**
 * The first 2xx response's schema and the media ranges to ask for (`http.accept`; null: `application/json`): its
 * JSON types when it offers JSON but not `application/json` (`application/vnd.api+json`), else every type it
 * offers, an answer that is then the tool's text or content, so the tool has no output schema.
 */
function answerOf(operation: Raw, converter: SchemaConverter): { schema: Raw | null; accept: string | null } {
  const responses = isRecord(operation.responses) ? operation.responses : {};
  const code = Object.keys(responses)
    .filter((c) => /^2(\d\d|XX)$/.test(c))
    .sort(compareText)[0];
  const response = code === undefined ? null : converter.follow(responses[code]);
  const content = response !== null && isRecord(response.content) ? response.content : {};
  const ranges = [...new Set(Object.keys(content).map((t) => t.trim()))];
  const json = ranges.filter((r) => answerKind(r) === 'json');
  const accept = (json.length > 0 ? json : ranges).filter((r) => mediaRanges.test(r)).join(', ');
  if (json.length > 0 || accept === '') {
    const plain = accept === '' || json.some((r) => r.toLowerCase() === 'application/json' || r === '*/*');
    return { schema: mediaOf(content)?.schema ?? null, accept: plain ? null : accept };
  }
  return { schema: null, accept };
}

/**
 * The 2xx response's JSON schema; an answer that is not an object
 * is wrapped as `{ result }` (structuredContent is an object).
 */
function outputSchema(
  schema: Raw | null,
  converter: SchemaConverter,
  findings: SchemaFindings,
): { schema: Record<string, unknown>; wrapped: boolean } | null {
  if (schema === null) return null;
  const refs = new Set<string>();
  const converted = converter.inlineRoot(converter.part(schema, refs, findings), refs);
  if (converted.type === 'object' || (converted.type === undefined && isRecord(converted.properties)))
    return {
      schema: converter.withShared({ type: 'object', ...converted }, refs, outputBudget, findings.prunedOutput),
      wrapped: false,
    };
  return {
    schema: converter.withShared(
      { type: 'object', additionalProperties: false, required: ['result'], properties: { result: converted } },
      refs,
      outputBudget,
      findings.prunedOutput,
    ),
    wrapped: true,
  };
}

/** The media type `application/json` (or any `+json` type, else the first) and its schema. */
function mediaOf(content: unknown): { type: string; schema: Raw | null } | null {
  if (!isRecord(content)) return null;
  const types = Object.keys(content);
  const chosen = types.find((t) => t === 'application/json') ?? types.find((t) => /[/+]json\b/.test(t)) ?? types[0];
  const media = chosen === undefined ? null : content[chosen];
  if (chosen === undefined) return null;
  return { type: chosen, schema: isRecord(media) && isRecord(media.schema) ? media.schema : null };
}

/**
 * An object schema that accepts keys it does not name, or names none and does not forbid others: the model cannot
 * know what to send. `additionalProperties: false` closes an object, even one with no properties (an operation
 * without parameters takes exactly nothing).
 */
export function isOpenObject(schema: unknown): boolean {
  if (!isRecord(schema)) return true;
  if (Object.keys(schema).length === 0) return true;
  const objectish = schema.type === 'object' || (schema.type === undefined && schema.properties !== undefined);
  if (!objectish || schema.additionalProperties === false) return false;
  return (
    !isRecord(schema.properties) ||
    Object.keys(schema.properties).length === 0 ||
    schema.additionalProperties === true ||
    isRecord(schema.additionalProperties)
  );
}

/**
 * An open object whose extra keys may hold anything: an answer nobody described. A map whose values have a schema
 * (`additionalProperties: {type: integer}`: counts by status) says what it holds.
 */
export function isUndescribedObject(schema: unknown): boolean {
  if (!isOpenObject(schema)) return false;
  const extra = isRecord(schema) ? schema.additionalProperties : undefined;
  return !(isRecord(extra) && Object.keys(extra).length > 0);
}
