import { isEffectivelyDestructive } from '../../model/defaults.js';
import { mapSchema, someSchema, walkSchema } from '../../model/schema-walk.js';
import { sharedRefName, sharedRefPrefix } from '../../model/shared-schema.js';
import { entriesOf, isRecord } from '../../util/guards.js';
import { parsePointer, resolvePointer } from '../../util/json-pointer.js';
import { suggestClosest } from '../../util/suggest.js';
import { describeValue, type RuleContext } from '../context.js';
import { validateSchema } from '../validators.js';

const typeWords: Record<string, string> = {
  array: 'a list',
  object: 'a mapping',
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
};

/** Annotation contradictions and approval on destructive tools. */
export function checkToolHints(ctx: RuleContext): void {
  for (const [name, tool] of entriesOf(isRecord(ctx.data) ? ctx.data.tools : undefined)) {
    if (!isRecord(tool)) continue;
    const annotations = isRecord(tool.annotations) ? tool.annotations : {};
    if (annotations.readOnlyHint === true && annotations.destructiveHint === true) {
      ctx.report(
        'hints-contradictory',
        ['tools', name, 'annotations', 'destructiveHint'],
        `tool "${name}" is marked both readOnlyHint: true and destructiveHint: true`,
        'drop destructiveHint, or set readOnlyHint: false if the tool changes data',
      );
    }
    if (tool.approval === 'none' && isEffectivelyDestructive(annotations)) {
      const why =
        annotations.destructiveHint === true
          ? 'destructiveHint: true'
          : 'no readOnlyHint or destructiveHint: false, so MCP treats it as destructive';
      ctx.report(
        'approval-none-destructive',
        ['tools', name, 'approval'],
        `tool "${name}" is destructive (${why}) but runs without approval`,
        'remove "approval: none", or mark the tool readOnlyHint: true or destructiveHint: false',
      );
    }
  }
}

/** Input/output schemas: object root, valid 2020-12, local resolvable refs, declared handle kinds; and handle use. */
export function checkToolSchemas(ctx: RuleContext): void {
  const data = isRecord(ctx.data) ? ctx.data : {};
  const declared = entriesOf(data.handles).map(([kind]) => kind);
  const issued = new Set<string>();
  const consumed = new Set<string>();
  for (const [name, tool] of entriesOf(data.tools)) {
    if (!isRecord(tool)) continue;
    for (const part of ['input', 'output'] as const) {
      const schema = tool[part];
      if (!isRecord(schema)) continue;
      const base = ['tools', name, part];
      if (part === 'input' && schema.type !== 'object') {
        ctx.report(
          'input-not-object',
          [...base, ...(schema.type === undefined ? [] : ['type'])],
          `tool "${name}" input must have type: object at its root, got ` +
            `${schema.type === undefined ? 'no type' : describeValue(schema.type)}`,
          'wrap the arguments in "type: object" with "properties"',
        );
      }
      walkSchema(schema, (node, path) => {
        if ('$handle' in node) {
          const kind = node.$handle;
          if (typeof kind === 'string' && declared.includes(kind)) (part === 'input' ? consumed : issued).add(kind);
          else {
            const guess = typeof kind === 'string' ? suggestClosest(kind, declared) : undefined;
            ctx.report(
              'handle-undeclared',
              [...base, ...path, '$handle'],
              `$handle ${describeValue(kind)} names no kind declared under handles`,
              guess !== undefined ? `did you mean "${guess}"?` : `declare it under handles`,
            );
          }
        }
        if ('$ref' in node) checkRef(ctx, schema, node.$ref, [...base, ...path, '$ref']);
        if (isRecord(node.properties) && Object.hasOwn(node.properties, '__proto__')) {
          ctx.report(
            'schema-invalid',
            [...base, ...path, 'properties', '__proto__'],
            'property name "__proto__" cannot be used: JavaScript objects ' +
              'take it as their prototype, so a handler could never read it',
            'rename the property',
            'key',
          );
        }
      });
      checkMetaSchema(ctx, schema, base);
    }
  }
  for (const kind of declared) {
    if (!issued.has(kind))
      ctx.report(
        'handle-never-issued',
        ['handles', kind],
        `handle kind "${kind}" is never issued: no tool output contains $handle: ${kind}`,
        `add { $handle: ${kind} } to the output of the tool that creates it`,
        'key',
      );
    if (!consumed.has(kind))
      ctx.report(
        'handle-never-consumed',
        ['handles', kind],
        `handle kind "${kind}" is never consumed: no tool input contains $handle: ${kind}`,
        `add { $handle: ${kind} } to the input of the tools that continue the workflow`,
        'key',
      );
  }
}

function sharedNames(ctx: RuleContext): string[] {
  return entriesOf(isRecord(ctx.data) ? ctx.data.schemas : undefined).map(([name]) => name);
}

/** A `$ref: '#/schemas/<name>'` must name a shared schema (called by the tools' and the shared schemas' ref checks). */
export function checkSharedRef(ctx: RuleContext, ref: string, path: readonly (string | number)[]): void {
  const name = sharedRefName(ref);
  // Looked up, not listed: a large manifest has hundreds of shared schemas and thousands of references to them.
  const schemas = isRecord(ctx.data) ? ctx.data.schemas : undefined;
  if (name !== null && isRecord(schemas) && Object.hasOwn(schemas, name)) return;
  const names = sharedNames(ctx);
  const guess = name === null ? undefined : suggestClosest(name, names);
  ctx.report(
    'ref-unresolved',
    path,
    `$ref "${ref}" names no shared schema under schemas`,
    guess !== undefined ? `did you mean "#/schemas/${guess}"?` : 'declare it under the top-level schemas',
  );
}

export function checkRef(
  ctx: RuleContext,
  root: Record<string, unknown>,
  ref: unknown,
  path: readonly (string | number)[],
): void {
  if (typeof ref !== 'string') return; // the meta-schema check reports the type
  if (!ref.startsWith('#')) {
    ctx.report(
      'ref-not-local',
      path,
      `$ref "${ref}" points outside this schema; mcp-gen never reads other files or the network`,
      'move the definition under $defs and use "#/$defs/Name"',
    );
    return;
  }
  if (ref === '#') return;
  if (ref.startsWith(sharedRefPrefix)) {
    checkSharedRef(ctx, ref, path);
    return;
  }
  if (!ref.startsWith('#/')) {
    const anchors = new Set<string>();
    walkSchema(root, (node) => {
      if (typeof node.$anchor === 'string') anchors.add(node.$anchor);
    });
    if (!anchors.has(ref.slice(1))) ctx.report('ref-unresolved', path, `$ref "${ref}" names no $anchor in this schema`);
    return;
  }
  if (resolvePointer(root, parsePointer(decodeURIComponent(ref))) === undefined) {
    const defs = isRecord(root.$defs) ? Object.keys(root.$defs) : [];
    const guess = suggestClosest(ref.replace(/^#\/\$defs\//, ''), defs);
    ctx.report(
      'ref-unresolved',
      path,
      `$ref "${ref}" points at nothing in this schema`,
      guess !== undefined ? `did you mean "#/$defs/${guess}"?` : 'define the target under $defs',
    );
  }
}

/** A problem a schema has alone, wherever it sits: where in the schema, and what to say. */
type SchemaProblem = readonly [path: readonly (string | number)[], message: string, hint?: string];

/**
 * Reports what JSON Schema 2020-12 says of `schema` at `base`. The verdict is a function of the schema object
 * alone, which `ctx.memo` may give back; only where it is reported depends on the text.
 */
export function checkMetaSchema(
  ctx: RuleContext,
  schema: Record<string, unknown>,
  base: readonly (string | number)[],
): void {
  for (const [path, message, hint] of ctx.memo.recall('validate.meta-schema', schema, metaSchemaProblems))
    ctx.report('schema-invalid', [...base, ...path], message, hint);
}

function metaSchemaProblems(schema: Record<string, unknown>): SchemaProblem[] {
  // `$handle` is mcp-gen's own keyword; check the schema as the wire will see it.
  const lowered = someSchema(schema, (node) => '$handle' in node)
    ? mapSchema(schema, (node) => ('$handle' in node ? { type: 'string' } : node))
    : schema;
  // Tool schemas are JSON Schema 2020-12 (the MCP default dialect).
  let checked: ReturnType<typeof validateSchema>;
  try {
    checked = validateSchema(lowered as object);
  } catch (error) {
    return [
      [
        ['$schema'],
        `schema cannot be checked: ${(error as Error).message}`,
        'omit $schema; tool schemas use JSON Schema 2020-12',
      ],
    ];
  }
  if (checked.valid) return patternProblems(schema);
  const seen = new Set<string>();
  const problems: SchemaProblem[] = [];
  for (const error of checked.errors) {
    if (seen.has(error.instancePath)) continue;
    seen.add(error.instancePath);
    const path = parsePointer(error.instancePath);
    const keyword = path[path.length - 1] ?? 'schema';
    const allowed = error.keyword === 'enum' ? (error.params.allowedValues as unknown[]) : [];
    const expected =
      error.keyword === 'type'
        ? String(error.params.type)
            .split(',')
            .map((t) => typeWords[t] ?? t)
            .join(' or ')
        : error.keyword === 'enum'
          ? `one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`
          : (error.message ?? 'valid').replace(/^must (be )?/, '');
    const guess = typeof error.data === 'string' ? suggestClosest(error.data, allowed.map(String)) : undefined;
    problems.push([
      path,
      `invalid JSON Schema: "${keyword}" must be ${expected}, got ${describeValue(error.data)}`,
      guess === undefined ? `write "${keyword}" as JSON Schema 2020-12 defines it` : `did you mean "${guess}"?`,
    ]);
  }
  return problems;
}

/**
 * Each `pattern` and `patternProperties` key that is no regular expression under the `u` flag: JSON Schema's patterns
 * are ECMA-262, and every validator of a generated server (ajv, as the SDK configures it) compiles them so. Without
 * the flag `\%`, or `\-` outside a class, means the character; with it, it is an error.
 */
function patternProblems(schema: Record<string, unknown>): SchemaProblem[] {
  if (!someSchema(schema, (node) => regexOf(node.pattern) !== null || regexKeys(node).length > 0)) return [];
  const problems: SchemaProblem[] = [];
  const report = (path: (string | number)[], keyword: string, pattern: string, why: string) =>
    problems.push([
      path,
      `invalid JSON Schema: ${keyword} ${JSON.stringify(pattern)} is not a regular expression with the u flag (${why})`,
      'JSON Schema patterns are ECMA-262 with the u flag: escape only a character with a meaning (\\. \\/ \\[, and ' +
        '\\- inside [...]); write %, and - outside [...], as they are',
    ]);
  walkSchema(schema, (node, path) => {
    const why = regexOf(node.pattern);
    if (why !== null) report([...path, 'pattern'], '"pattern"', String(node.pattern), why);
    for (const [key, reason] of regexKeys(node)) report([...path, 'patternProperties', key], 'the key', key, reason);
  });
  return problems;
}

/** Why `pattern` does not compile with the `u` flag, or null when it does (or is no string: the meta-schema says). */
function regexOf(pattern: unknown): string | null {
  if (typeof pattern !== 'string') return null;
  try {
    new RegExp(pattern, 'u');
    return null;
  } catch (error) {
    return (error as Error).message.replace(/^Invalid regular expression: \/.*\/u?: /, '').toLowerCase();
  }
}

/** The `patternProperties` keys of `node` that do not compile with the `u` flag, and why. */
function regexKeys(node: Record<string, unknown>): [string, string][] {
  if (!isRecord(node.patternProperties)) return [];
  return Object.keys(node.patternProperties).flatMap((key) => {
    const why = regexOf(key);
    return why === null ? [] : [[key, why] as [string, string]];
  });
}
