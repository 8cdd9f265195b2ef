import { walkSchema } from '../../model/schema-walk.js';
import { entriesOf, isRecord } from '../../util/guards.js';
import { suggestClosest } from '../../util/suggest.js';
import type { RuleContext } from '../context.js';

/**
 * Every keyword of JSON Schema 2020-12 (core, applicator, unevaluated, validation, meta-data, format and
 * content vocabularies), the draft-07 spellings a validator still reads (`definitions`, `dependencies`), and
 * mcp-gen's own `$handle`. JSON Schema ignores any other key, so a typo such as `minLenght` silently drops
 * the bound it meant to set.
 */
const knownKeywords: readonly string[] = [
  ...['$schema', '$id', '$ref', '$anchor', '$dynamicRef', '$dynamicAnchor', '$vocabulary', '$comment', '$defs'],
  ...['prefixItems', 'items', 'contains', 'additionalProperties', 'properties', 'patternProperties'],
  ...['dependentSchemas', 'propertyNames', 'if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', 'not'],
  ...['unevaluatedItems', 'unevaluatedProperties'],
  ...['type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum'],
  ...['maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains'],
  ...['maxProperties', 'minProperties', 'required', 'dependentRequired'],
  ...['title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'examples'],
  ...['format', 'contentEncoding', 'contentMediaType', 'contentSchema'],
  ...['definitions', 'dependencies', '$handle'],
];
const known = new Set(knownKeywords);

/** Vendor keywords (`x-mcp-header`, `x-order`) are extensions by convention: JSON Schema and mcp-gen pass them on. */
const isExtension = (key: string): boolean => key.startsWith('x-');

/**
 * Tool schemas: an unknown keyword is a warning with the keyword it most likely meant; a `required` name that
 * no `properties` or `patternProperties` entry allows, under `additionalProperties: false`, is an error, since
 * no arguments could ever satisfy the schema and the tool could never be called.
 */
export function checkSchemaKeywords(ctx: RuleContext): void {
  for (const [name, tool] of entriesOf(isRecord(ctx.data) ? ctx.data.tools : undefined)) {
    if (!isRecord(tool)) continue;
    for (const part of ['input', 'output'] as const) {
      const schema = tool[part];
      if (!isRecord(schema)) continue;
      walkSchema(schema, (node, path) => {
        const at = ['tools', name, part, ...path];
        for (const key of Object.keys(node)) {
          if (known.has(key) || isExtension(key)) continue;
          const guess = suggestClosest(key, knownKeywords);
          ctx.report(
            'schema-keyword-unknown',
            [...at, key],
            `tool "${name}" ${part} schema has the key "${key}", which is no JSON Schema keyword: it is ignored`,
            guess === undefined ? 'remove it, or prefix a vendor extension with "x-"' : `did you mean "${guess}"?`,
            'key',
          );
        }
        checkRequired(ctx, name, part, node, at);
      });
    }
  }
}

function checkRequired(
  ctx: RuleContext,
  tool: string,
  part: string,
  node: Record<string, unknown>,
  at: readonly (string | number)[],
): void {
  if (node.additionalProperties !== false || !Array.isArray(node.required)) return;
  const properties = isRecord(node.properties) ? Object.keys(node.properties) : [];
  const patterns = isRecord(node.patternProperties) ? Object.keys(node.patternProperties) : [];
  for (const [index, required] of node.required.entries()) {
    if (typeof required !== 'string' || properties.includes(required)) continue;
    if (patterns.some((pattern) => matches(pattern, required))) continue;
    const guess = suggestClosest(required, properties);
    ctx.report(
      'required-not-declared',
      [...at, 'required', index],
      `tool "${tool}" ${part} requires "${required}", which is not among its properties while ` +
        'additionalProperties is false: no value can satisfy the schema',
      guess === undefined
        ? `declare "${required}" under properties, or remove it from required`
        : `did you mean "${guess}"?`,
    );
  }
}

/** Whether a `patternProperties` pattern (ECMA-262, per JSON Schema) admits `name`; a bad one admits nothing. */
function matches(pattern: string, name: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(name);
  } catch {
    return false;
  }
}
