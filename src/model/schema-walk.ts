/**
 * Walks a JSON Schema 2020-12 document through its subschema positions only,
 * so that a property *named* `$ref` or `$handle` is never mistaken for the
 * keyword. Shared by validation (refs, handles) and normalization (lowering).
 */

import { compareText } from '../util/compare.js';
import { setOwn } from '../util/set-own.js';
import { sortKeysDeep } from '../util/stable-json.js';

type Visit = (node: Record<string, unknown>, path: readonly (string | number)[]) => void;

const schemaMaps = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const schemaLists = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const schemaSingles = [
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
];

function isSchemaObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Calls `visit` for the root and every nested subschema, parents before children, in key order. */
export function walkSchema(schema: unknown, visit: Visit, path: readonly (string | number)[] = []): void {
  if (!isSchemaObject(schema)) return;
  visit(schema, path);
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    if (schemaMaps.includes(key) && isSchemaObject(value)) {
      for (const name of Object.keys(value)) walkSchema(value[name], visit, [...path, key, name]);
    } else if (schemaLists.includes(key) && Array.isArray(value)) {
      for (const [i, item] of value.entries()) walkSchema(item, visit, [...path, key, i]);
    } else if (key === 'items') {
      if (Array.isArray(value)) for (const [i, item] of value.entries()) walkSchema(item, visit, [...path, key, i]);
      else walkSchema(value, visit, [...path, key]);
    } else if (schemaSingles.includes(key)) {
      walkSchema(value, visit, [...path, key]);
    }
  }
}

/** Whether `test` holds for the root or any nested subschema (the nodes `walkSchema` visits), stopping at the first. */
export function someSchema(schema: unknown, test: (node: Record<string, unknown>) => boolean): boolean {
  if (!isSchemaObject(schema)) return false;
  if (test(schema)) return true;
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    if (schemaMaps.includes(key) && isSchemaObject(value)) {
      for (const name of Object.keys(value)) if (someSchema(value[name], test)) return true;
    } else if ((schemaLists.includes(key) || key === 'items') && Array.isArray(value)) {
      for (const item of value) if (someSchema(item, test)) return true;
    } else if (key === 'items' || schemaSingles.includes(key)) {
      if (someSchema(value, test)) return true;
    }
  }
  return false;
}

type Path = readonly (string | number)[];

/** How a copy orders keys and copies what is not a subschema. */
interface CopyRule {
  readonly keys: (node: Record<string, unknown>) => string[];
  /** What a subschema position holds when it is no schema object (`items: true`). */
  readonly other: (value: unknown) => unknown;
  /** The value of any other keyword (`enum`, `default`, `required`). */
  readonly keyword: (value: unknown) => unknown;
}

/** `mapSchema`'s copy: keys as written, keyword objects cloned. */
const asWritten: CopyRule = {
  keys: Object.keys,
  other: (value) => value,
  // Most such values are strings and numbers, which need no copy (structuredClone of one is itself, slowly).
  keyword: (value) => (value !== null && typeof value === 'object' ? structuredClone(value) : value),
};

/** `mapSchemaSorted`'s copy: every object's keys sorted. */
const sorted: CopyRule = {
  keys: (node) => Object.keys(node).sort(compareText),
  other: sortKeysDeep,
  keyword: sortKeysDeep,
};

/** Copies `schema` by `rule`, each subschema through `map`; the path is built only when `path` is given. */
function copySchema(
  schema: unknown,
  map: (node: Record<string, unknown>, path: Path | null) => Record<string, unknown>,
  path: Path | null,
  rule: CopyRule,
): unknown {
  if (!isSchemaObject(schema)) return rule.other(schema);
  const within = (...segments: (string | number)[]): Path | null => (path === null ? null : [...path, ...segments]);
  const out: Record<string, unknown> = {};
  for (const key of rule.keys(schema)) {
    const value = schema[key];
    if (schemaMaps.includes(key) && isSchemaObject(value)) {
      const inner: Record<string, unknown> = {};
      for (const name of rule.keys(value)) setOwn(inner, name, copySchema(value[name], map, within(key, name), rule));
      out[key] = inner;
    } else if ((schemaLists.includes(key) || key === 'items') && Array.isArray(value)) {
      out[key] = value.map((item, i) => copySchema(item, map, within(key, i), rule));
    } else if (key === 'items' || schemaSingles.includes(key)) {
      out[key] = copySchema(value, map, within(key), rule);
    } else {
      setOwn(out, key, rule.keyword(value));
    }
  }
  return map(out, path);
}

/** A deep copy of `schema` with every subschema replaced by `map(node, path)`, children first. */
export function mapSchema(
  schema: unknown,
  map: (node: Record<string, unknown>, path: Path) => Record<string, unknown>,
  path: Path = [],
): unknown {
  return copySchema(schema, (node, at) => map(node, at ?? path), path, asWritten);
}

/**
 * `sortKeysDeep(mapSchema(schema, map))` in one copy: every object's keys sorted, `map` given each subschema with
 * its own keys sorted and its subschemas already done (what it returns must keep the keys in order). A large
 * API's schemas are copied once, not twice, and without a path for every node.
 */
export function mapSchemaSorted(
  schema: unknown,
  map: (node: Record<string, unknown>) => Record<string, unknown>,
): unknown {
  return copySchema(schema, (node) => map(node), null, sorted);
}
