import { isEffectivelyDestructive, manifestDefaults } from '../model/defaults.js';
import { handlerPath } from '../model/layout.js';
import type { Manifest, ManifestTool, ManifestToolAnnotations } from '../model/manifest.gen.js';
import { handlerExport, pascalCase } from '../model/naming.js';
import { mapSchema, mapSchemaSorted, someSchema, walkSchema } from '../model/schema-walk.js';
import { toolsetMembers } from '../model/tool-selection.js';
import type {
  HandleUseModel,
  JsonSchema,
  RetryClass,
  SharedSchemaModel,
  ToolAnnotationsModel,
  ToolModel,
  ToolsetModel,
} from '../model/types.js';
import { sharedRefsOf } from '../model/shared-schema.js';
import { compareText, sortBy } from '../util/compare.js';
import { isRecord } from '../util/guards.js';
import { formatPointer } from '../util/json-pointer.js';
import { sortKeysDeep } from '../util/stable-json.js';
import { durationMs } from '../util/duration.js';
import { type Memo, noMemo } from '../util/memo.js';
import { normalizeBinding } from './bindings.js';
import { normalizeIcons } from './metadata.js';
import { type SharedSchemas, toWireRefs, withSharedDefs } from './shared-schemas.js';

const hintKeys = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/**
 * Tools sorted by name, with defaults, handle uses and generated names. A tool's model is a function of its entry
 * (whose object is its name's alone: an entry of `tools:` is one piece of the text) and of the handles and shared
 * schemas outside `tools:`, so `memo` may give back the model of the same entry object.
 */
export function normalizeTools(
  tools: Readonly<Record<string, ManifestTool>>,
  handleDescriptions: ReadonlyMap<string, string>,
  shared: SharedSchemas = new Map(),
  memo: Memo = noMemo,
): ToolModel[] {
  const models = Object.entries(tools).map(([name, entry]) =>
    memo.recall('normalize.tool', entry, (tool) => toolModel(name, tool, handleDescriptions, shared)),
  );
  return sortBy(models, (t) => t.name);
}

/** One tool's model; its toolsets are filled in by `normalizeToolsets`. */
function toolModel(
  name: string,
  tool: ManifestTool,
  handleDescriptions: ReadonlyMap<string, string>,
  shared: SharedSchemas,
): ToolModel {
  const annotations = pickHints(tool.annotations ?? {});
  const destructive = isEffectivelyDestructive(annotations);
  const idempotency = tool.idempotency ?? 'none';
  const input = canonicalSchema(idempotency === 'key' ? withIdempotencyKey(tool.input) : tool.input);
  const output = tool.output === undefined ? null : canonicalSchema(tool.output);
  const typeBase = pascalCase(name);
  return {
    name,
    title: tool.title ?? null,
    description: tool.description,
    icons: normalizeIcons(tool.icons),
    annotations,
    readOnly: annotations.readOnlyHint === true,
    destructive,
    approval: tool.approval ?? (destructive ? 'confirm' : 'none'),
    idempotency,
    retry: retryClass(annotations, idempotency),
    scopes: [...new Set(tool.scopes ?? [])].sort(compareText),
    tags: [...(tool.tags ?? [])].sort(compareText),
    toolsets: [],
    // A Node timer fires at once past 2^31 - 1 milliseconds (about 24.8 days): a longer timeout means that long, not
    // immediately.
    timeoutMs: Math.min(durationMs(tool.timeout, undefined, manifestDefaults.toolTimeoutMs), 2_147_483_647),
    task: tool.task ?? 'none',
    taskStart: tool.taskStart ?? 'call',
    taskTtlMs: Math.min(durationMs(tool.taskTtl, undefined, manifestDefaults.taskTtlMs), 2_147_483_647),
    renamedFrom: tool.renamedFrom ?? null,
    input,
    output,
    wireInput: withSharedDefs(lowerHandles(input, handleDescriptions), input, shared),
    wireOutput: output === null ? null : withSharedDefs(lowerHandles(output, handleDescriptions), output, shared),
    consumes: findHandles(input),
    issues: output === null ? [] : findHandles(output),
    names: {
      handler: handlerExport(name),
      inputType: `${typeBase}Input`,
      outputType: `${typeBase}Output`,
      file: handlerPath('tool', name),
    },
    pointer: `/tools/${name}`,
    http: normalizeBinding(tool.http),
  };
}

/** `toolsets:` sorted by name with their tools, and `tools` with the toolsets each is in. */
export function normalizeToolsets(
  toolsets: NonNullable<Manifest['toolsets']>,
  manifestTools: Readonly<Record<string, ManifestTool>>,
  tools: readonly ToolModel[],
  memo: Memo = noMemo,
): { toolsets: ToolsetModel[]; tools: ToolModel[] } {
  const selectable = tools.map((t) => ({
    name: t.name,
    tags: t.tags,
    annotations: manifestTools[t.name]?.annotations,
  }));
  const models = sortBy(Object.entries(toolsets), ([name]) => name).map(
    ([name, toolset]): ToolsetModel => ({
      name,
      description: toolset.description,
      default: toolset.default ?? false,
      tools: toolsetMembers(toolset, selectable),
      pointer: `/toolsets/${name}`,
    }),
  );
  // Each tool's toolsets in the toolsets' order, found by name once (a large API has a thousand tools in fifty).
  const memberOf = new Map<string, string[]>();
  for (const m of models)
    for (const name of new Set(m.tools)) {
      const sets = memberOf.get(name);
      if (sets === undefined) memberOf.set(name, [m.name]);
      else sets.push(m.name);
    }
  // A tool's toolsets depend on `toolsets:` and the tool alone: the same model object is in the same ones.
  const withToolsets = (t: ToolModel) =>
    memo.recall('normalize.toolsets', t, () => ({ ...t, toolsets: memberOf.get(t.name) ?? [] }));
  return { toolsets: models, tools: tools.map(withToolsets) };
}

/**
 * `schemas:` sorted by name, canonical, with their wire form. Tool models hold the wire forms (under `$defs`), and
 * emitters find them there by object: `memo` gives back the same model for the same entry object.
 */
export function normalizeSharedSchemas(
  schemas: Readonly<Record<string, unknown>>,
  memo: Memo = noMemo,
): SharedSchemaModel[] {
  const models = Object.entries(schemas).map(([name, entry]) =>
    isRecord(entry)
      ? memo.recall('normalize.schema', entry, (raw) => sharedSchema(name, raw))
      : sharedSchema(name, entry),
  );
  return sortBy(models, (s) => s.name);
}

function sharedSchema(name: string, raw: unknown): SharedSchemaModel {
  const schema = canonicalSchema(raw);
  return {
    name,
    typeName: pascalCase(name),
    schema,
    wire: toWireRefs(schema),
    refs: sharedRefsOf(schema).sort(compareText),
  };
}

/** The argument `idempotency: key` adds; the runtime takes it out before hashing the other arguments. */
export const idempotencyKeyProperty = 'idempotencyKey';

/** Bounded and printable, so a key is cheap to store and safe to log; a UUID fits. */
export const idempotencyKeySchema: JsonSchema = {
  type: 'string',
  minLength: 8,
  maxLength: 128,
  pattern: '^[A-Za-z0-9._:-]+$',
  description:
    'A fresh unique key for this operation (e.g. a UUID). Retry with the same key and the same ' +
    'arguments to get the first result without running it again; use a new key for a new operation.',
};

/** `input` with the required `idempotencyKey` argument (replacing any property of that name). */
function withIdempotencyKey(input: unknown): JsonSchema {
  const schema = isRecord(input) ? input : {};
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name) => name !== idempotencyKeyProperty)
    : [];
  return {
    ...schema,
    properties: { ...properties, [idempotencyKeyProperty]: idempotencyKeySchema },
    required: [...required, idempotencyKeyProperty],
  } as JsonSchema;
}

/** Read-only and idempotent tools are safe to retry; a mutating one is safe only with an idempotency key. */
function retryClass(annotations: ToolAnnotationsModel, idempotency: 'key' | 'none'): RetryClass {
  if (annotations.readOnlyHint === true || annotations.idempotentHint === true) return 'safe';
  return idempotency === 'key' ? 'conditional' : 'unsafe';
}

/** The hints as declared, in a fixed key order. */
function pickHints(annotations: ManifestToolAnnotations): ToolAnnotationsModel {
  const out: Record<string, boolean> = {};
  for (const key of hintKeys) {
    const hint = annotations[key];
    if (hint !== undefined) out[key] = hint;
  }
  return out;
}

/**
 * Keys sorted recursively and `required` sorted, so the output never depends on
 * the YAML's key order. `enum` and other arrays keep their declared order: it means something.
 */
export function canonicalSchema(value: unknown): JsonSchema {
  if (!isRecord(value)) return {};
  return mapSchemaSorted(value, (node) =>
    Array.isArray(node.required)
      ? { ...node, required: [...node.required].sort((a, b) => compareText(String(a), String(b))) }
      : node,
  ) as JsonSchema;
}

/** Longest handle token accepted on the wire; real ones are about 150 characters. */
export const maxHandleLength = 2048;

/**
 * `{ $handle: kind }` becomes a bounded string whose description tells the
 * model where the value comes from; a description written next to `$handle` wins.
 */
export function lowerHandles(schema: JsonSchema, handleDescriptions: ReadonlyMap<string, string>): JsonSchema {
  // Most schemas have no handle (an imported API's, all of them): they are their own wire form, not copied.
  if (!someSchema(schema, (node) => typeof node.$handle === 'string')) return schema;
  return mapSchema(schema, (node) => {
    if (typeof node.$handle !== 'string') return node;
    const kind = node.$handle;
    const { $handle: _kind, ...rest } = node;
    const about = handleDescriptions.get(kind) ?? '';
    const description =
      typeof rest.description === 'string'
        ? rest.description
        : `A ${kind} handle (${about.replace(/\.$/, '')}). Pass it back exactly as it was returned.`;
    return sortKeysDeep({ ...rest, type: 'string', minLength: 1, maxLength: maxHandleLength, description }) as Record<
      string,
      unknown
    >;
  }) as JsonSchema;
}

function findHandles(schema: JsonSchema): HandleUseModel[] {
  const uses: HandleUseModel[] = [];
  walkSchema(schema, (node, path) => {
    if (typeof node.$handle === 'string') uses.push({ kind: node.$handle, pointer: formatPointer(path) });
  });
  return uses;
}
