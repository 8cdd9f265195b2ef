import { sortBy } from '../util/compare.js';
import { isRecord } from '../util/guards.js';
import { pascalCase, reservedTypeNames } from '../model/naming.js';
import { sharedRefPrefix } from '../model/shared-schema.js';
import { quote } from './names.js';
import { decodeSegment, holdsRef, pointerStem, resolveFragment } from './openapi-pointer.js';
import {
  alone,
  examplesList,
  listedCompositions,
  nestedType,
  satisfiableRequired,
  schemaType,
  unicodePattern,
} from './openapi-repairs.js';
import { overBudget, pruneRefs, type Reach, type SchemaBudget } from './schema-budget.js';

/**
 * OpenAPI-only keywords with no JSON Schema 2020-12 meaning, and the identifiers and anchors of a component
 * (`$id`, `$schema`, `$anchor`, `$dynamicAnchor`): a tool schema holds the component under `$defs`, where an `$id`
 * would change the base URI its `$ref`s resolve against (the official client then refuses the tool: "can't resolve
 * reference #/$defs/... from id https://..."). Dropped from tool schemas; references to anchors become `$ref`s to
 * the component that holds them.
 */
const openApiOnly = new Set([
  'discriminator',
  'xml',
  'externalDocs',
  'example',
  'nullable',
  '$id',
  '$schema',
  '$anchor',
  '$dynamicAnchor',
  '$recursiveAnchor',
  '$dynamicRef',
  '$recursiveRef',
]);
/** Keywords whose value is a map of schemas, by name. */
const schemaMaps = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is data, copied as it is. */
const dataKeys = new Set(['enum', 'const', 'default', 'examples', 'required']);
const componentPrefix = '#/components/schemas/';

/** What converting one schema found that a reviewer should see. */
export interface SchemaFindings {
  /** A `$ref` that is not a component was circular and became an open schema. */
  circular: boolean;
  /** The components whose expansion a tool's input or output schema left out to fit its budget, by name. */
  prunedInput?: string[];
  prunedOutput?: string[];
}

/** One component schema, converted once for the whole document. */
interface Component {
  /** Its name under the manifest's shared `schemas`. */
  readonly key: string;
  schema: Record<string, unknown>;
  /** The components its schema refers to, directly. */
  readonly refs: ReadonlySet<string>;
}

/**
 * OpenAPI 3.0/3.1 Schema Objects as JSON Schema 2020-12, the dialect of tool
 * schemas. The document is not dereferenced: a `$ref` to a component becomes
 * `#/schemas/<key>`, a reference to the manifest's shared schemas, where each
 * component a tool reaches is written once, converted once per document. So a
 * schema shared by a thousand tools is written once, not once per tool (a copy
 * per tool nearly triples a large API's draft), and a recursive one
 * stays recursive. Per schema: `nullable: true` becomes a `null` type, `example`
 * becomes `examples`, 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum`
 * become numbers, `x-` extensions and OpenAPI-only keywords go, and so does
 * `title`: a titled schema would become a TypeScript type named after it, and
 * specs reuse titles for different schemas (GitHub's `simple-user` and
 * `nullable-simple-user` are both "Simple User"), while shared schema names are
 * unique, also as type names.
 */
export class SchemaConverter {
  private readonly components = new Map<string, Component>();
  private readonly keys = new Set<string>();
  /** Component names by shared schema key. */
  private readonly byKey = new Map<string, string>();
  /** Components some tool schema reaches: the draft's shared schemas. */
  private readonly used = new Set<string>();
  /** What each component reaches, once per document. */
  private readonly reach = new Map<string, Reach>();

  /** What converting repaired or left out (openapi-repairs.ts), each at `where`: the import's warnings. */
  readonly notices = new Set<string>();
  private where = 'the document';

  constructor(private readonly document: Readonly<Record<string, unknown>>) {}

  /** `run`, with `where` (a tool, a component) naming the place of what converting notices. */
  within<T>(where: string, run: () => T): T {
    const outer = this.where;
    this.where = where;
    const result = run();
    this.where = outer;
    return result;
  }

  /** `schema` converted; the components it refers to are added to `refs`. */
  part(schema: unknown, refs: Set<string>, findings: SchemaFindings): Record<string, unknown> {
    const converted = this.convert(schema, refs, findings, new Set());
    return isRecord(converted) ? converted : {};
  }

  /**
   * A root that is only a `$ref` to a component (a response that is a `Pet`)
   * takes the component's own keywords, so the root says its type itself.
   */
  inlineRoot(root: Record<string, unknown>, refs: Set<string>): Record<string, unknown> {
    const name = typeof root.$ref === 'string' ? this.byKey.get(root.$ref.slice(sharedRefPrefix.length)) : undefined;
    const component = name === undefined ? null : this.component(name);
    if (name === undefined || component === null) return root;
    const { $ref: _ref, ...rest } = root;
    refs.delete(name);
    for (const ref of component.refs) refs.add(ref);
    return { ...component.schema, ...rest };
  }

  /**
   * `root`, whose references to components `refs` names: they and all they reach become shared schemas. With a
   * `budget`, the references that take the root over it become pruned objects, and their names go to `pruned`.
   */
  withShared(
    root: Record<string, unknown>,
    refs: ReadonlySet<string>,
    budget?: SchemaBudget,
    pruned?: string[],
  ): Record<string, unknown> {
    const cut =
      budget === undefined ? [] : overBudget(refs, budget, (n) => this.component(n)?.refs ?? null, this.reach);
    const kept = cut.length === 0 ? refs : new Set([...refs].filter((name) => !cut.includes(name)));
    for (const component of this.closure(kept)) this.used.add(component.key);
    pruned?.push(...cut);
    return pruneRefs(root, cut, (name) => {
      const component = this.component(name);
      return component === null ? null : { ref: `${sharedRefPrefix}${component.key}`, schema: component.schema };
    });
  }

  /** The draft's `schemas`: every component a tool schema reaches, once, sorted by key. */
  sharedSchemas(): Record<string, Record<string, unknown>> {
    const used = [...this.components.values()].filter((c) => this.used.has(c.key));
    return Object.fromEntries(sortBy(used, (c) => c.key).map((c) => [c.key, c.schema]));
  }

  /** Every component reachable from `refs`, each once. */
  private closure(refs: ReadonlySet<string>): Component[] {
    const found = new Map<string, Component>();
    const queue = [...refs];
    for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
      if (found.has(name)) continue;
      const component = this.component(name);
      if (component === null) continue;
      found.set(name, component);
      queue.push(...component.refs);
    }
    return [...found.values()];
  }

  private component(name: string): Component | null {
    const known = this.components.get(name);
    if (known !== undefined) return known;
    const schemas = isRecord(this.document.components) ? this.document.components.schemas : undefined;
    const declared = isRecord(schemas) && Object.hasOwn(schemas, name);
    const pointer = !declared && name.includes('/');
    const raw = declared ? schemas[name] : pointer ? this.resolve(`${componentPrefix}${name}`) : undefined;
    if (raw === undefined) return null;
    const refs = new Set<string>();
    // Registered before its schema is converted: a component that refers to itself finds its own key.
    const component: Component = { key: this.keyOf(pointer ? pointerStem(name) : name), schema: {}, refs };
    this.components.set(name, component);
    this.byKey.set(component.key, name);
    // Findings of a component are the document's, not one tool's: a `$ref` to a component is never cut.
    const converted = this.within(`component ${quote(name)}`, () =>
      this.convert(raw, refs, { circular: false }, new Set()),
    );
    component.schema = isRecord(converted) ? converted : {};
    return component;
  }

  /**
   * A shared schema key for component `name` whose TypeScript type name no other key shares (`a-b` and `a_b`, in
   * any case) and that is none the generated types declare themselves (`Config` becomes `Config_2`).
   */
  private keyOf(name: string): string {
    // A shared schema's name is at most 128 characters (validate/schema-rules.ts); `_<n>` may follow the cut.
    const base = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 120);
    const folded = (key: string) => key.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
    const taken = (key: string) =>
      key === '__proto__' || this.keys.has(folded(key)) || reservedTypeNames.has(pascalCase(key));
    let key = base;
    for (let n = 2; taken(key); n += 1) key = `${base}_${n}`;
    this.keys.add(folded(key));
    return key;
  }

  private convert(given: unknown, refs: Set<string>, findings: SchemaFindings, inlining: ReadonlySet<string>): unknown {
    if (Array.isArray(given)) return given.map((item) => this.convert(item, refs, findings, inlining));
    if (!isRecord(given)) return given;
    const schema = nestedType(listedCompositions(given, this.notices, this.where), this.notices, this.where);
    const out: Record<string, unknown> = {};
    const anyRef = schema.$ref ?? schema.$dynamicRef ?? schema.$recursiveRef;
    if (typeof anyRef === 'string') {
      // `#name` names an anchor; the component that declares it stands for it.
      const anchored = /^#[A-Za-z_][A-Za-z0-9_.-]*$/.test(anyRef) ? this.anchorOwner(anyRef.slice(1)) : undefined;
      const ref =
        anchored === undefined ? anyRef : `${componentPrefix}${anchored.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (ref.startsWith(componentPrefix)) {
        // A pointer into a component (Azure's `.../ApplicationGateway/properties/sku`) is shared like one, under
        // its pointer: inlined, pointers that lead to pointers grew a 155 KB document past any string's length.
        const tail = ref.slice(componentPrefix.length);
        const name = tail.includes('/') ? tail : decodeSegment(tail);
        const component = this.component(name);
        if (component !== null) {
          refs.add(name);
          out.$ref = `${sharedRefPrefix}${component.key}`;
        }
      } else {
        // Any other local pointer is inlined; one that leads back to itself is cut and reported.
        const target = inlining.has(ref) ? undefined : this.resolve(ref);
        if (target === undefined) findings.circular = true;
        else Object.assign(out, this.convert(target, refs, findings, new Set(inlining).add(ref)));
      }
    }
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' || key === 'title' || key.startsWith('x-') || openApiOnly.has(key)) continue;
      if (schemaMaps.has(key)) {
        out[key] = isRecord(value)
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.convert(v, refs, findings, inlining)]))
          : value;
      } else if (key === 'pattern') {
        const pattern = unicodePattern(value, this.notices, this.where);
        if (pattern !== undefined) out[key] = pattern;
      } else if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') {
        if (typeof value === 'number') out[key] = value;
      } else if (key === 'type') {
        const type = schemaType(value, this.notices, this.where);
        if (type !== undefined) out.type = type;
      } else if (dataKeys.has(key)) {
        const data = key === 'examples' ? examplesList(value, this.notices, this.where) : value;
        if (data !== undefined && !holdsRef(data)) out[key] = structuredClone(data);
      } else {
        out[key] = this.convert(value, refs, findings, inlining);
      }
    }
    // OpenAPI 3.0 writes the exclusive bound as a flag next to minimum/maximum.
    if (schema.exclusiveMinimum === true && typeof schema.minimum === 'number') {
      out.exclusiveMinimum = schema.minimum;
      delete out.minimum;
    }
    if (schema.exclusiveMaximum === true && typeof schema.maximum === 'number') {
      out.exclusiveMaximum = schema.maximum;
      delete out.maximum;
    }
    if ('example' in schema && !('examples' in schema) && !holdsRef(schema.example))
      out.examples = [structuredClone(schema.example)];
    if (schema.nullable === true) {
      if (typeof out.type === 'string') out.type = [out.type, 'null'];
      else if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    }
    satisfiableRequired(out, this.notices, this.where);
    return alone(out);
  }

  private anchors: Map<string, string> | null = null;
  /** The component whose root declares `$anchor` or `$dynamicAnchor` `anchor`, or undefined. */
  private anchorOwner(anchor: string): string | undefined {
    if (this.anchors === null) {
      this.anchors = new Map();
      const schemas = isRecord(this.document.components) ? this.document.components.schemas : undefined;
      for (const [name, raw] of Object.entries(isRecord(schemas) ? schemas : {}))
        for (const key of ['$anchor', '$dynamicAnchor'])
          if (isRecord(raw) && typeof raw[key] === 'string' && !this.anchors.has(raw[key]))
            this.anchors.set(raw[key], name);
    }
    return this.anchors.get(anchor);
  }

  /** The value at a local `#/...` pointer of the document, or undefined. */
  resolve(ref: string): unknown {
    return resolveFragment(this.document, ref);
  }

  /** `value` with a `$ref` to another part of the document (a parameter, a response) followed, at most 16 hops. */
  follow(value: unknown): Readonly<Record<string, unknown>> | null {
    let node = value;
    for (let hops = 0; hops < 16 && isRecord(node) && typeof node.$ref === 'string'; hops += 1)
      node = this.resolve(node.$ref);
    return isRecord(node) && typeof node.$ref !== 'string' ? node : null;
  }
}
