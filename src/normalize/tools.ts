import { isEffectivelyDestructive } from '../model/defaults.js';
import { handlerPath } from '../model/layout.js';
import { camelCase, pascalCase } from '../model/naming.js';
import { mapSchema, walkSchema } from '../model/schema-walk.js';
import type { HandleUseModel, JsonSchema, ToolAnnotationsModel, ToolModel } from '../model/types.js';
import { compareText, sortBy } from '../util/compare.js';
import { entriesOf, isRecord, stringOr } from '../util/guards.js';
import { formatPointer } from '../util/json-pointer.js';
import { sortKeysDeep } from '../util/stable-json.js';

const hintKeys = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** Tools sorted by name, with defaults, handle uses and generated names. */
export function normalizeTools(value: unknown, handleDescriptions: ReadonlyMap<string, string>): ToolModel[] {
  const tools = entriesOf(value).map(([name, raw]): ToolModel => {
    const tool = isRecord(raw) ? raw : {};
    const annotations = pickHints(tool.annotations);
    const destructive = isEffectivelyDestructive(annotations);
    const input = canonicalSchema(tool.input);
    const output = isRecord(tool.output) ? canonicalSchema(tool.output) : null;
    const typeBase = pascalCase(name);
    return {
      name,
      title: stringOr(tool.title) ?? null,
      description: stringOr(tool.description) ?? '',
      annotations,
      readOnly: annotations.readOnlyHint === true,
      destructive,
      approval: tool.approval === 'none' || tool.approval === 'confirm' ? tool.approval : destructive ? 'confirm' : 'none',
      scopes: Array.isArray(tool.scopes) ? [...new Set(tool.scopes.filter((s): s is string => typeof s === 'string'))].sort(compareText) : [],
      renamedFrom: stringOr(tool.renamedFrom) ?? null,
      input,
      output,
      wireInput: lowerHandles(input, handleDescriptions),
      wireOutput: output === null ? null : lowerHandles(output, handleDescriptions),
      consumes: findHandles(input),
      issues: output === null ? [] : findHandles(output),
      names: {
        handler: camelCase(name),
        inputType: `${typeBase}Input`,
        outputType: `${typeBase}Output`,
        file: handlerPath('tool', name),
      },
      pointer: `/tools/${name}`,
    };
  });
  return sortBy(tools, (t) => t.name);
}

function pickHints(value: unknown): ToolAnnotationsModel {
  const raw = isRecord(value) ? value : {};
  const out: Record<string, boolean> = {};
  for (const key of hintKeys) if (typeof raw[key] === 'boolean') out[key] = raw[key];
  return out;
}

/**
 * Keys sorted recursively and `required` sorted, so the output never depends on
 * the YAML's key order. `enum` and other arrays keep their declared order: it means something.
 */
export function canonicalSchema(value: unknown): JsonSchema {
  const sortedRequired = mapSchema(value, (node) =>
    Array.isArray(node.required) ? { ...node, required: [...node.required].sort((a, b) => compareText(String(a), String(b))) } : node,
  );
  return (isRecord(sortedRequired) ? sortKeysDeep(sortedRequired) : {}) as JsonSchema;
}

/** Longest handle token accepted on the wire; real ones are about 150 characters. */
export const maxHandleLength = 2048;

/**
 * `{ $handle: kind }` becomes a bounded string whose description tells the
 * model where the value comes from; a description written next to `$handle` wins.
 */
export function lowerHandles(schema: JsonSchema, handleDescriptions: ReadonlyMap<string, string>): JsonSchema {
  return mapSchema(schema, (node) => {
    if (typeof node.$handle !== 'string') return node;
    const kind = node.$handle;
    const { $handle: _kind, ...rest } = node;
    const about = handleDescriptions.get(kind) ?? '';
    const description = typeof rest.description === 'string' ? rest.description : `A ${kind} handle (${about.replace(/\.$/, '')}). Pass it back exactly as it was returned.`;
    return sortKeysDeep({ ...rest, type: 'string', minLength: 1, maxLength: maxHandleLength, description }) as Record<string, unknown>;
  }) as JsonSchema;
}

function findHandles(schema: JsonSchema): HandleUseModel[] {
  const uses: HandleUseModel[] = [];
  walkSchema(schema, (node, path) => {
    if (typeof node.$handle === 'string') uses.push({ kind: node.$handle, pointer: formatPointer(path) });
  });
  return uses;
}
