/**
 * Validators of tool schemas that reach shared schemas (`schemas:` in the manifest), compiled so that each shared
 * schema is compiled once: every shared schema is added to the one ajv instance under an id of its own, each tool
 * schema refers to it by that id instead of holding it under `$defs`, and a single standalone module exports all
 * of these validators, so the code of a shared schema is written once however many tools reach it. Verdicts and
 * messages are those of the self-contained wire schema: `$ref` to an id or to `#/$defs/<name>` validates alike,
 * and the messages name only the instance path.
 */
import { mapSchema } from '../../model/schema-walk.js';
import { isRecord } from '../../util/guards.js';

/** A base no reference in a manifest can name (validate allows only local references). */
const sharedBase = 'https://mcp-gen.invalid/schemas/';
const toolBase = 'https://mcp-gen.invalid/tools/';

type Schema = Readonly<Record<string, unknown>>;
type Ajv = { addSchema(schema: object, key?: string): unknown; getSchema(id: string): unknown };

/** The names of the shared schemas `schema` holds under `$defs` (the shared model objects, by identity). */
export function sharedDefsOf(schema: Schema, shared: ReadonlyMap<string, Schema>): string[] {
  const defs = isRecord(schema.$defs) ? schema.$defs : {};
  return Object.keys(defs).filter((name) => shared.get(name) === defs[name]);
}

/** `schema` with each `#/$defs/<shared name>` reference as the shared schema's id. */
function toIds(schema: unknown, names: ReadonlySet<string>): Record<string, unknown> {
  return mapSchema(schema, (node) => {
    if (typeof node.$ref !== 'string' || !node.$ref.startsWith('#/$defs/')) return node;
    const name = node.$ref.slice('#/$defs/'.length);
    return names.has(name) ? { ...node, $ref: `${sharedBase}${name}` } : node;
  }) as Record<string, unknown>;
}

/** Collects the tool schemas of one module and adds what they need to `ajv`. */
export class SharedValidatorBatch {
  private readonly added = new Set<string>();
  private readonly names: ReadonlySet<string>;
  /** Export name by tool-schema id, in the order added. */
  readonly exports: Record<string, string> = {};

  constructor(
    private readonly ajv: Ajv,
    private readonly shared: ReadonlyMap<string, Schema>,
  ) {
    this.names = new Set(shared.keys());
  }

  /** Adds the wire schema `schema` (which reaches shared schemas) as export `name`. */
  add(name: string, schema: Schema): void {
    for (const shared of sharedDefsOf(schema, this.shared)) this.addShared(shared);
    const defs = isRecord(schema.$defs) ? schema.$defs : {};
    const own = Object.fromEntries(Object.entries(defs).filter(([k, v]) => this.shared.get(k) !== v));
    const { $defs: _defs, ...root } = schema;
    const form = toIds(Object.keys(own).length === 0 ? root : { ...root, $defs: own }, this.names);
    const id = `${toolBase}${name}`;
    this.ajv.addSchema({ ...form, $id: id });
    this.exports[name] = id;
  }

  private addShared(name: string): void {
    if (this.added.has(name)) return;
    this.added.add(name);
    const schema = this.shared.get(name);
    if (schema !== undefined) this.ajv.addSchema({ ...toIds(schema, this.names), $id: `${sharedBase}${name}` });
  }
}
