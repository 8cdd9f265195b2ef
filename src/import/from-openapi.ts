import { manifestDefaults } from '../model/defaults.js';
import { compareText } from '../util/compare.js';
import { isRecord, stringOr } from '../util/guards.js';
import { importedTextNote, untrustedDraftNotice, type Draft, type DraftNote } from './draft.js';
import { isSemver, NameAllocator, quote, serverName } from './names.js';
import {
  type HttpMethod,
  type OperationPolicy,
  operationName,
  operationPolicy,
  titleFromName,
} from './openapi-operation.js';
import { httpBinding, upstreamDraft } from './openapi-binding.js';
import {
  type ArgumentEntry,
  parameterInputs,
  propertyName,
  type RequestMedia,
  requestMedia,
} from './openapi-request.js';
import { isOpenObject, SchemaConverter, type SchemaFindings, withDescription } from './openapi-schema.js';

type Raw = Readonly<Record<string, unknown>>;

/** HTTP methods in the order the draft lists an operation's tools. */
const methods: readonly HttpMethod[] = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'];
/** A description shorter than this says too little for a model to choose the tool. */
const weakDescription = 40;
const maxDescription = 2000;
/** Who wrote the draft's titles and descriptions, as its notes name them. */
const origin = 'the spec';

/**
 * A curated draft of an OpenAPI 3.x document: one tool per operation, with a
 * verb-noun name, a title, all four hints and approval (openapi-operation.ts),
 * its input from the parameters and the request body, its output from the
 * 2xx response; the components they reach are written once, as the
 * manifest's shared `schemas` (openapi-schema.ts). A note above each tool keeps the method, the path and
 * where each argument goes. Flags name what a reviewer must decide.
 */
export function draftFromOpenApi(api: Raw, source: string): Draft {
  const notes: DraftNote[] = [];
  const flags: string[] = [];
  const info = isRecord(api.info) ? api.info : {};
  const title = stringOr(info.title) ?? 'imported-api';
  const version = stringOr(info.version) ?? '';
  const server: Record<string, unknown> = {
    name: serverName(title),
    version: isSemver(version) ? version : '0.1.0',
    // A version that is not semantic is kept as the spec writes it, for serverInfo and verify.
    ...(isSemver(version) || version === '' ? {} : { wireVersion: version.slice(0, 128) }),
    title: title.slice(0, 200),
  };
  const summary = firstParagraph(stringOr(info.summary) ?? stringOr(info.description) ?? '');
  if (summary !== '') server.description = summary.slice(0, maxDescription);

  notes.push({
    path: [],
    text: `Draft imported by mcp-gen from the OpenAPI ${String(api.openapi)} document ${quote(source)}.`,
  });
  const untrusted = untrustedDraftNotice(origin);
  notes.push({ path: [], text: untrusted.note });
  notes.push({
    path: [],
    text: 'Review every TODO, then run "mcp-gen check" and "mcp-gen generate"; each handler calls the API.',
  });
  notes.push(...importedTextNote(server, ['server'], origin));
  const servers = Array.isArray(api.servers)
    ? api.servers
        .filter(isRecord)
        .map((s) => stringOr(s.url))
        .filter((u): u is string => u !== undefined)
    : [];
  if (servers.length > 0)
    notes.push({
      path: [],
      text: `The API's base URL${servers.length > 1 ? 's' : ''}: ${servers.map(quote).join(', ')}`,
    });
  notes.push({
    path: [],
    text:
      "TODO auth: the spec's security schemes became the upstream credential (how this server calls the " +
      'API), not who may call this server; declare auth if callers must sign in.',
  });
  const bindings = upstreamDraft(api, String(server.name));
  notes.push(...bindings.notes);
  if (!isSemver(version))
    notes.push({
      path: ['server', 'version'],
      text:
        `TODO version: the spec's info.version ${quote(version)} is not a semantic version; it is kept as ` +
        'wireVersion (what serverInfo sends), and version is the package version',
    });

  const names = new NameAllocator();
  const converter = new SchemaConverter(api);
  const tools: Record<string, unknown> = {};
  const paths = isRecord(api.paths) ? api.paths : {};
  for (const [route, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue;
    for (const method of methods) {
      const operation = item[method];
      if (!isRecord(operation)) continue;
      const operationId = stringOr(operation.operationId);
      const name = names.allocate(operationName(method, route, operationId), 'op');
      const findings: SchemaFindings = { circular: false };
      const policy = operationPolicy(method, name);
      const { tool, binding, problems } = operationTool(
        { method, route, item, operation, name, policy },
        converter,
        findings,
      );
      flags.push(...problems);
      tools[name] = tool;
      const at = ['tools', name];
      // A tool without summary or description is described by its method and path, which are not prose.
      if (tool.title !== titleFromName(name) || tool.description !== `${method.toUpperCase()} ${route}`)
        notes.push(...importedTextNote(tool, at, origin));
      notes.push({
        path: at,
        text:
          `${method.toUpperCase()} ${route}` +
          (operationId === undefined
            ? ' (no operationId; named from the method and path)'
            : ` (${quote(operationId)})`),
      });
      if (binding !== null) notes.push({ path: [...at, 'http'], text: binding });
      for (const todo of policy.todos) notes.push({ path: [...at, 'annotations'], text: todo });
      const described = String(tool.description);
      if (described.length < weakDescription)
        flags.push(
          `tool "${name}": weak description (${described.length} characters); say when to use it and what it returns`,
        );
      if (
        isOpenObject(tool.input) ||
        Object.values(isRecord((tool.input as Raw).properties) ? ((tool.input as Raw).properties as Raw) : {}).some(
          (p) => isRecord(p) && (p.type === 'object' || Object.keys(p).length === 0) && isOpenObject(p),
        )
      ) {
        flags.push(
          `tool "${name}": open input schema (an object that accepts any keys); name the properties the API needs`,
        );
      }
      if (tool.output !== undefined && isOpenObject(tool.output as Raw))
        flags.push(`tool "${name}": open output schema`);
      if (findings.circular) {
        flags.push(`tool "${name}": a recursive schema was cut to an open schema {}`);
        notes.push({
          path: [...at, 'input'],
          text:
            "TODO schema: a recursive part of the spec's schema " +
            'became {} (any value); describe the depth a model needs',
        });
      }
    }
  }
  const count = Object.keys(tools).length;
  if (count > manifestDefaults.maxTools)
    flags.unshift(
      `${count} tools, more than the ${manifestDefaults.maxTools} a model chooses ` +
        'among well; merge or drop operations (one tool per task, not per endpoint)',
    );
  flags.push(untrusted.flag);
  const schemas = converter.sharedSchemas();
  const data = {
    mcpGen: 1,
    server,
    config: bindings.config,
    upstream: bindings.upstream,
    ...(Object.keys(schemas).length === 0 ? {} : { schemas }),
    tools,
  };
  return { data, notes, flags };
}

interface Operation {
  readonly method: HttpMethod;
  readonly route: string;
  readonly item: Raw;
  readonly operation: Raw;
  readonly name: string;
  readonly policy: OperationPolicy;
}

/** The tool of one operation, and the note that says where each of its arguments goes in the request. */
function operationTool(
  op: Operation,
  converter: SchemaConverter,
  findings: SchemaFindings,
): { tool: Record<string, unknown>; binding: string | null; problems: string[] } {
  const { method, route, operation } = op;
  const summary = stringOr(operation.summary)?.trim() ?? '';
  const details = stringOr(operation.description)?.trim() ?? '';
  const description = [summary, details].filter((t, i, all) => t !== '' && all.indexOf(t) === i).join('\n\n');
  const tool: Record<string, unknown> = {};
  tool.title = summary === '' ? titleFromName(op.name) : summary.slice(0, 200);
  tool.description = (description === '' ? `${method.toUpperCase()} ${route}` : description).slice(0, maxDescription);
  tool.annotations = op.policy.annotations;
  if (op.policy.approval !== null) tool.approval = op.policy.approval;
  const { schema, args, media, problems } = inputSchema(op, converter, findings);
  tool.input = schema;
  const output = outputSchema(operation, converter, findings);
  if (output !== null) tool.output = output.schema;
  const { http, todo } = httpBinding({ method, route, args, media, wrapped: output?.wrapped ?? false });
  tool.http = http;
  const at = `tool ${quote(op.name)} (${method.toUpperCase()} ${route})`;
  return { tool, binding: todo, problems: problems.map((p) => `${at}: ${p}`) };
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
): {
  schema: Record<string, unknown>;
  args: Map<string, ArgumentEntry>;
  media: RequestMedia | null;
  problems: string[];
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
  const { properties, required, args, problems } = parameterInputs([...params.values()], (p) => {
    const schema = isRecord(p.schema) ? converter.part(p.schema, refs, findings) : { type: 'string' };
    const described = stringOr(p.description);
    return described === undefined ? schema : withDescription(schema, described);
  });
  const body = converter.follow(op.operation.requestBody);
  const media = body === null ? null : requestMedia(body.content);
  if (media !== null && media.schema !== null) {
    const schema = converter.part(media.schema, refs, findings);
    const described = stringOr(body?.description);
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
  return { schema: converter.withShared(root, refs), args, media: media?.schema === null ? null : media, problems };
}

/**
 * The 2xx response's JSON schema; an answer that is not an object
 * is wrapped as `{ result }` (structuredContent is an object).
 */
function outputSchema(
  operation: Raw,
  converter: SchemaConverter,
  findings: SchemaFindings,
): { schema: Record<string, unknown>; wrapped: boolean } | null {
  const responses = isRecord(operation.responses) ? operation.responses : {};
  const code = Object.keys(responses)
    .filter((c) => /^2(\d\d|XX)$/.test(c))
    .sort(compareText)[0];
  const response = code === undefined ? null : converter.follow(responses[code]);
  const schema = response === null ? null : (mediaOf(response.content)?.schema ?? null);
  if (schema === null) return null;
  const refs = new Set<string>();
  const converted = converter.inlineRoot(converter.part(schema, refs, findings), refs);
  if (converted.type === 'object' || (converted.type === undefined && isRecord(converted.properties)))
    return { schema: converter.withShared({ type: 'object', ...converted }, refs), wrapped: false };
  return {
    schema: converter.withShared(
      { type: 'object', additionalProperties: false, required: ['result'], properties: { result: converted } },
      refs,
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

function firstParagraph(text: string): string {
  return (text.trim().split(/\n\s*\n/)[0] ?? '').replace(/\s+/g, ' ').trim();
}
