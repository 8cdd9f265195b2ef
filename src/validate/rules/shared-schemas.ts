import { walkSchema } from '../../model/schema-walk.js';
import { sharedClosure, sharedRefName, sharedRefsOf } from '../../model/shared-schema.js';
import { entriesOf, isRecord } from '../../util/guards.js';
import type { RuleContext } from '../context.js';
import { checkMetaSchema, checkRef } from './tools.js';

/** The shared schema a schema is only an alias of (`{ $ref: '#/schemas/x' }` and nothing else), or null. */
function aliasOf(schema: unknown): string | null {
  if (!isRecord(schema)) return null;
  const keys = Object.keys(schema).filter((k) => k !== 'description' && k !== '$comment');
  if (keys.length === 1 && keys[0] === '$ref') return sharedRefName(schema.$ref);
  if (keys.length === 1 && keys[0] === 'allOf' && Array.isArray(schema.allOf) && schema.allOf.length === 1)
    return aliasOf(schema.allOf[0]);
  return null;
}

/**
 * Shared schemas (`schemas:`): each a valid JSON Schema 2020-12 whose references name other shared schemas (a
 * pointer into itself would lead elsewhere once it sits under a tool schema's `$defs`); no `$handle` (a handle's
 * type depends on the side, input or output, it is used on);
 * no cycle made only of aliases (`a` is `b`, `b` is `a`: no value and no type); and no tool `$defs` key that is
 * also the name of a shared schema the tool reaches (both would be the same `$defs` entry on the wire).
 * References that form a cycle through properties or items are recursion, and fine.
 */
export function checkSharedSchemas(ctx: RuleContext): void {
  const data = isRecord(ctx.data) ? ctx.data : {};
  const shared = new Map(entriesOf(data.schemas).filter(([, s]) => isRecord(s)));
  for (const [name, schema] of shared) {
    const base = ['schemas', name];
    walkSchema(schema, (node, path) => {
      if ('$handle' in node)
        ctx.report(
          'schema-invalid',
          [...base, ...path, '$handle'],
          `shared schema "${name}" uses $handle; a handle belongs in the tool schema that issues or takes it`,
          'move the handle property into the tool schemas, next to the $ref',
        );
      if (!('$ref' in node)) return;
      if (typeof node.$ref === 'string' && node.$ref.startsWith('#') && sharedRefName(node.$ref) === null)
        ctx.report(
          'schema-invalid',
          [...base, ...path, '$ref'],
          `shared schema "${name}" refers to "${node.$ref}": a shared schema is placed inside each tool schema ` +
            'that uses it, where a pointer into it no longer leads to the same place',
          "make the part a shared schema of its own and refer to it as '#/schemas/<name>'",
        );
      else checkRef(ctx, schema as Record<string, unknown>, node.$ref, [...base, ...path, '$ref']);
    });
    checkMetaSchema(ctx, schema as Record<string, unknown>, base);
  }
  for (const name of shared.keys()) {
    const seen = [name];
    for (let next = aliasOf(shared.get(name)); next !== null; next = aliasOf(shared.get(next))) {
      if (next === name) {
        ctx.report(
          'schema-invalid',
          ['schemas', name],
          `shared schema "${name}" is only an alias in a cycle of aliases (${[...seen, name].join(' -> ')}): ` +
            'it describes no value',
          'give one schema of the cycle a type and properties',
        );
        break;
      }
      if (seen.includes(next)) break;
      seen.push(next);
    }
  }
  const refsOf = (n: string) => (shared.has(n) ? sharedRefsOf(shared.get(n)) : undefined);
  for (const [toolName, tool] of entriesOf(data.tools)) {
    if (!isRecord(tool)) continue;
    for (const part of ['input', 'output'] as const) {
      const schema = tool[part];
      if (!isRecord(schema) || !isRecord(schema.$defs)) continue;
      const reached = sharedClosure(sharedRefsOf(schema), refsOf);
      for (const key of Object.keys(schema.$defs).filter((k) => reached.includes(k)))
        ctx.report(
          'schema-invalid',
          ['tools', toolName, part, '$defs', key],
          `tool "${toolName}" ${part} defines $defs "${key}" and also reaches the shared schema "${key}", ` +
            'which the wire schema holds under that same key',
          'rename the $defs entry',
          'key',
        );
    }
  }
}
