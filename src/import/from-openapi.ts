import { manifestDefaults } from '../model/defaults.js';
import { isRecord, stringOr } from '../util/guards.js';
import { importedTextNote, untrustedDraftNotice, type Draft, type DraftNote } from './draft.js';
import { firstParagraph, isSemver, NameAllocator, quote, serverName } from './names.js';
import { TagToolsets } from './openapi-toolsets.js';
import { specCuration, type SpecCuration } from './openapi-extensions.js';
import { admits, type FilterTarget, type OperationFilters, unmatchedFilters } from './openapi-filters.js';
import {
  type HttpMethod,
  operationName,
  operationPolicy,
  type OperationPolicy,
  titleFromName,
} from './openapi-operation.js';
import { upstreamDraft } from './openapi-binding.js';
import { pathItem } from './openapi-pointer.js';
import { operationShapeWarning, operationShapeWarnings } from './openapi-shape.js';
import { withBaseUrl } from './openapi-servers.js';
import { splitRoute } from './openapi-route.js';
import { SchemaConverter, type SchemaFindings } from './openapi-schema.js';
import { isOpenObject, isUndescribedObject, maxDescription, operationTool } from './openapi-tool.js';
import { prunedReview } from './schema-budget.js';
import { removeZeroWidth } from './visible-text.js';

type Raw = Readonly<Record<string, unknown>>;

/** HTTP methods in the order the draft lists an operation's tools. */
const methods: readonly HttpMethod[] = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'];
/** A description shorter than this says too little for a model to choose the tool. */
const weakDescription = 40;
/** No filter: every operation the spec's extensions do not drop. */
const everything: OperationFilters = { include: [], exclude: [] };
/** Who wrote the draft's titles and descriptions, as its notes name them. */
const origin = 'the spec';

/**
 * A curated draft of an OpenAPI 3.x document: one tool per operation, with a
 * verb-noun name, a title, all four hints and approval (openapi-operation.ts),
 * its input from the parameters and the request body, its output from the
 * 2xx response; the components they reach are written once, as the
 * manifest's shared `schemas` (openapi-schema.ts). A note above each tool keeps the method, the path and
 * where each argument goes. Flags name what a reviewer must decide. `filters` (openapi-filters.ts) and the
 * spec's `x-mcp` and `x-speakeasy-mcp` (openapi-extensions.ts) choose the operations and curate their tools.
 * `name`, the server's name the last import drafted (`--update`), names the server and its config variables instead
 * of the spec's title, so that a retitled API keeps them.
 */
export function draftFromOpenApi(
  api: Raw,
  source: string,
  filters: OperationFilters = everything,
  name?: string,
): Draft {
  const notes: DraftNote[] = [];
  const flags: string[] = [];
  const warnings: string[] = [];
  const info = isRecord(api.info) ? api.info : {};
  // A spec without a title (or with an empty one) is named after its file.
  const title = stringOr(info.title)?.trim() || source.replace(/\.(json|ya?ml)$/i, '') || 'imported-api';
  const version = stringOr(info.version) ?? '';
  const server: Record<string, unknown> = {
    name: name ?? serverName(title),
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
  const chosen = [
    ...filters.include.map((f) => `--include ${quote(f.text)}`),
    ...filters.exclude.map((f) => `--exclude ${quote(f.text)}`),
  ];
  if (chosen.length > 0)
    notes.push({
      path: [],
      text: `Operations chosen by ${chosen.join(' ')}; "import openapi --update" applies them again.`,
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
  warnings.push(...bindings.warnings);
  if (!isSemver(version))
    notes.push({
      path: ['server', 'version'],
      text:
        `TODO version: the spec's info.version ${quote(version)} is not a semantic version; it is kept as ` +
        'wireVersion (what serverInfo sends), and version is the package version',
    });

  const names = new NameAllocator();
  const tagged = new TagToolsets(api);
  const converter = new SchemaConverter(api);
  const styledParts = !String(api.openapi).startsWith('3.0');
  const tools: Record<string, unknown> = {};
  const paths = isRecord(api.paths) ? api.paths : {};
  const targets: FilterTarget[] = [];
  let dropped = 0;
  const operationTags = new Map<string, number>();
  for (const [route, written] of Object.entries(paths)) {
    const { item, warning } = pathItem(api, route, written);
    if (warning !== null) warnings.push(warning);
    if (item === null) continue;
    for (const method of methods) {
      const operation = item[method];
      const shape = operationShapeWarning(operation, `${method.toUpperCase()} ${route}`);
      if (shape !== null) warnings.push(shape);
      if (!isRecord(operation)) continue;
      const operationId = stringOr(operation.operationId);
      const tags = Array.isArray(operation.tags)
        ? operation.tags.filter((t): t is string => typeof t === 'string')
        : [];
      const target = { method, route, operationId, tags };
      targets.push(target);
      if (!admits(filters, target)) continue;
      const where = `${method.toUpperCase()} ${route}`;
      if (method === 'trace') {
        warnings.push(`${where}: a tool cannot send TRACE (fetch refuses the method); the operation is left out`);
        continue;
      }
      warnings.push(...operationShapeWarnings(item, operation, where, (entry) => converter.follow(entry)));
      const curation = specCuration(api, item, operation, where);
      warnings.push(...curation.warnings);
      if (curation.excluded !== null) {
        dropped += 1;
        continue;
      }
      const name =
        curation.name === undefined
          ? // A query written into the path key (openapi-route.ts) says nothing of what the operation does.
            names.allocate(operationName(method, splitRoute(route).path, operationId), 'op')
          : names.keep(curation.name, 'op');
      const findings: SchemaFindings = { circular: false, prunedInput: [], prunedOutput: [] };
      const policy = curatedPolicy(operationPolicy(method, name), curation);
      const { tool, binding, problems, secrets } = converter.within(`tool ${quote(name)}`, () =>
        operationTool(
          { method, route, item, operation, name, policy, styledParts },
          converter,
          findings,
          bindings.security,
        ),
      );
      flags.push(...problems);
      const served = bindings.servers.of(item, operation);
      if (served !== undefined) tool.http = withBaseUrl(tool.http as Raw, served.variable);
      if (curation.title !== undefined) tool.title = curation.title.slice(0, 200);
      if (curation.description !== undefined) tool.description = curation.description.slice(0, maxDescription);
      for (const tag of new Set(tags)) operationTags.set(tag, (operationTags.get(tag) ?? 0) + 1);
      const labels = tagged.label(tags);
      tools[name] = labels.length === 0 ? tool : withTags(tool, labels);
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
      if (served !== undefined) notes.push(...served.notes.map((text) => ({ path: [...at, 'http'], text })));
      if (secrets.length > 0)
        notes.push({
          path: [...at, 'http'],
          text:
            `The ${secrets.join(', ')} parameter${secrets.length > 1 ? 's carry' : ' carries'} a credential: ` +
            'a config variable sends it (upstream.credentials), not a tool input',
        });
      notes.push(...curationNotes(curation, at));
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
      if (tool.output !== undefined && isUndescribedObject(tool.output))
        flags.push(`tool "${name}": open output schema`);
      const pruned = prunedReview(name, at, findings);
      notes.push(...pruned.notes);
      flags.push(...pruned.flags);
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
  warnings.push(...unmatchedFilters(filters, targets), ...converter.notices);
  const count = Object.keys(tools).length;
  if (count > manifestDefaults.maxTools)
    flags.unshift(
      `${count} tools, more than the ${manifestDefaults.maxTools} a model chooses ` +
        'among well; merge or drop operations (one tool per task, not per endpoint)',
    );
  flags.push(untrusted.flag);
  const schemas = converter.sharedSchemas();
  const { toolsets, notes: toolsetNotes } = tagged.toolsets();
  notes.push(...toolsetNotes);
  const data = {
    mcpGen: 1,
    server,
    config: bindings.config,
    upstream: bindings.upstream,
    ...(Object.keys(toolsets).length === 0 ? {} : { toolsets }),
    ...(Object.keys(schemas).length === 0 ? {} : { schemas }),
    tools,
  };
  removeZeroWidth(data, warnings);
  return { data, notes, flags, warnings, dropped, operationTags };
}

/** `tool` with its `tags` after its description, where a reader looks for what the tool is. */
function withTags(tool: Record<string, unknown>, tags: readonly string[]): Record<string, unknown> {
  const { title, description, ...rest } = tool;
  return { title, description, tags, ...rest };
}

/** The spec's own hints replace the method's guesses, and approval follows them (every write asks). */
function curatedPolicy(policy: OperationPolicy, curation: SpecCuration): OperationPolicy {
  if (Object.keys(curation.annotations).length === 0) return policy;
  const annotations = { ...policy.annotations, ...curation.annotations };
  return {
    annotations,
    approval: annotations.readOnlyHint === true ? null : 'confirm',
    todos: policy.todos.filter((t) => !t.startsWith('TODO hints')),
  };
}

/** Where a tool's curation came from, and Speakeasy's scopes, which the manifest cannot take as they are. */
function curationNotes(curation: SpecCuration, at: readonly string[]): DraftNote[] {
  const notes: DraftNote[] = [];
  const from = [
    curation.name === undefined ? '' : 'name',
    curation.title === undefined ? '' : 'title',
    curation.description === undefined ? '' : 'description',
    Object.keys(curation.annotations).length === 0 ? '' : 'hints',
  ].filter((w) => w !== '');
  if (from.length > 0) notes.push({ path: at, text: `${from.join(', ')} from the spec's x-mcp or x-speakeasy-mcp` });
  if (curation.scopes.length > 0)
    notes.push({
      path: at,
      text:
        `TODO scopes: the spec's x-mcp or x-speakeasy-mcp gives the scopes ${curation.scopes.map(quote).join(', ')}; ` +
        "declare them under auth.scopes and list them in this tool's scopes if callers' tokens carry them",
    });
  return notes;
}
