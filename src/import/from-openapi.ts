import { manifestDefaults } from '../model/defaults.js';
import { compareText } from '../util/compare.js';
import { isRecord, stringOr } from '../util/guards.js';
import { importedTextNote, untrustedDraftNotice, type Draft, type DraftNote } from './draft.js';
import { isSemver, NameAllocator, quote, serverName } from './names.js';
import { isOpenObject, toJsonSchema, type SchemaFindings } from './openapi-schema.js';

type Raw = Readonly<Record<string, unknown>>;

/** HTTP methods in the order the draft lists an operation's tools. */
const methods = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'] as const;
/** A description shorter than this says too little for a model to choose the tool. */
const weakDescription = 40;
const maxDescription = 2000;
/** Who wrote the draft's titles and descriptions, as its notes name them. */
const origin = 'the spec';

/**
 * A curated draft of an OpenAPI 3.x document (already dereferenced): one tool
 * per operation, named from `operationId` in snake_case, its input from the
 * parameters and the request body, its output from the 2xx response, its
 * hints from the method: GET and HEAD read-only, DELETE destructive with
 * `approval: confirm`, PUT idempotent, PUT and PATCH destructive. Flags name what a reviewer must decide.
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
      "TODO auth: the spec's security schemes describe how handlers call the " +
      'API, not who may call this server; declare auth if callers must sign in.',
  });
  if (!isSemver(version))
    notes.push({
      path: ['server', 'version'],
      text: `TODO version: the spec's info.version ${quote(version)} is not a semantic version`,
    });

  const names = new NameAllocator();
  const tools: Record<string, unknown> = {};
  const paths = isRecord(api.paths) ? api.paths : {};
  for (const [route, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue;
    for (const method of methods) {
      const operation = item[method];
      if (!isRecord(operation)) continue;
      const wanted = stringOr(operation.operationId) ?? `${method} ${route}`;
      const name = names.allocate(wanted, 'op');
      const findings: SchemaFindings = { circular: false };
      const tool = operationTool(method, route, item, operation, findings);
      tools[name] = tool;
      const at = ['tools', name];
      // A tool without summary or description is described by its method and path, which are not prose.
      if (tool.title !== undefined || tool.description !== `${method.toUpperCase()} ${route}`)
        notes.push(...importedTextNote(tool, at, origin));
      notes.push({
        path: at,
        text:
          `${method.toUpperCase()} ${route}` +
          (operation.operationId === undefined ? ' (no operationId; named from the method and path)' : ''),
      });
      if (method === 'post')
        notes.push({
          path: [...at, 'annotations'],
          text:
            'TODO hints: a POST may also overwrite or delete; set ' +
            'destructiveHint: true (approval then defaults to confirm) if it does',
        });
      if (method === 'put' || method === 'patch')
        notes.push({
          path: [...at, 'annotations'],
          text:
            `TODO hints: ${method.toUpperCase()} changes what exists, so it is destructive ` +
            'and confirmed by default; set destructiveHint: false if nothing is lost',
        });
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
      if (tool.output !== undefined && isOpenObject(tool.output)) flags.push(`tool "${name}": open output schema`);
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
  return { data: { mcpGen: 1, server, tools }, notes, flags };
}

function operationTool(
  method: (typeof methods)[number],
  route: string,
  item: Raw,
  operation: Raw,
  findings: SchemaFindings,
): Record<string, unknown> {
  const summary = stringOr(operation.summary)?.trim() ?? '';
  const details = stringOr(operation.description)?.trim() ?? '';
  const description = [summary, details].filter((t, i, all) => t !== '' && all.indexOf(t) === i).join('\n\n');
  const tool: Record<string, unknown> = {};
  if (summary !== '') tool.title = summary.slice(0, 200);
  tool.description = (description === '' ? `${method.toUpperCase()} ${route}` : description).slice(0, maxDescription);
  tool.annotations = hintsFor(method);
  if (method === 'delete') tool.approval = 'confirm';
  tool.input = inputSchema(item, operation, findings);
  const output = outputSchema(operation, findings);
  if (output !== null) tool.output = output;
  return tool;
}

/** Hints from the method's HTTP semantics; every operation reaches an outside system. */
function hintsFor(method: string): Record<string, boolean> {
  if (method === 'get' || method === 'head' || method === 'options' || method === 'trace')
    return { readOnlyHint: true, openWorldHint: true };
  if (method === 'delete') return { destructiveHint: true, idempotentHint: true, openWorldHint: true };
  // PUT and PATCH replace or change what exists: destructive, so a generated server confirms them by default.
  if (method === 'put') return { destructiveHint: true, idempotentHint: true, openWorldHint: true };
  if (method === 'patch') return { destructiveHint: true, idempotentHint: false, openWorldHint: true };
  return { destructiveHint: false, idempotentHint: false, openWorldHint: true };
}

/** Path, query, header and cookie parameters as properties; a request body as `body`. */
function inputSchema(item: Raw, operation: Raw, findings: SchemaFindings): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  // Operation parameters override path-item ones with the same name and location.
  const params = new Map<string, Raw>();
  for (const list of [item.parameters, operation.parameters]) {
    for (const p of Array.isArray(list) ? list.filter(isRecord) : [])
      params.set(`${String(p.in)}:${String(p.name)}`, p);
  }
  for (const p of params.values()) {
    const name = stringOr(p.name);
    if (name === undefined) continue;
    const schema = isRecord(p.schema)
      ? (toJsonSchema(p.schema, findings) as Record<string, unknown>)
      : { type: 'string' };
    const described = stringOr(p.description);
    properties[name] =
      described !== undefined && schema.description === undefined ? { ...schema, description: described } : schema;
    if (p.required === true || p.in === 'path') required.push(name);
  }
  const body = isRecord(operation.requestBody) ? operation.requestBody : null;
  const bodySchema = body === null ? null : mediaSchema(body.content);
  if (bodySchema !== null) {
    const schema = toJsonSchema(bodySchema, findings) as Record<string, unknown>;
    const described = stringOr(body?.description);
    properties.body =
      described !== undefined && schema.description === undefined ? { ...schema, description: described } : schema;
    if (body?.required === true) required.push('body');
  }
  return {
    type: 'object',
    additionalProperties: false,
    ...(required.length > 0 ? { required: [...new Set(required)].sort(compareText) } : {}),
    properties,
  };
}

/**
 * The 2xx response's JSON schema; an answer that is not an object
 * is wrapped as `{ result }` (structuredContent is an object).
 */
function outputSchema(operation: Raw, findings: SchemaFindings): Record<string, unknown> | null {
  const responses = isRecord(operation.responses) ? operation.responses : {};
  const code = Object.keys(responses)
    .filter((c) => /^2(\d\d|XX)$/.test(c))
    .sort(compareText)[0];
  const response = code === undefined ? null : responses[code];
  const schema = isRecord(response) ? mediaSchema(response.content) : null;
  if (schema === null) return null;
  const converted = toJsonSchema(schema, findings) as Record<string, unknown>;
  if (converted.type === 'object' || (converted.type === undefined && isRecord(converted.properties)))
    return { type: 'object', ...converted };
  return { type: 'object', additionalProperties: false, required: ['result'], properties: { result: converted } };
}

/** The schema of `application/json` (or any `+json` type, else the first media type). */
function mediaSchema(content: unknown): unknown {
  if (!isRecord(content)) return null;
  const types = Object.keys(content);
  const chosen = types.find((t) => t === 'application/json') ?? types.find((t) => /[/+]json\b/.test(t)) ?? types[0];
  const media = chosen === undefined ? null : content[chosen];
  return isRecord(media) && isRecord(media.schema) ? media.schema : null;
}

function firstParagraph(text: string): string {
  return (text.trim().split(/\n\s*\n/)[0] ?? '').replace(/\s+/g, ' ').trim();
}
