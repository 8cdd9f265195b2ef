/**
 * The key tables of docs/manifest.md, written from the manifest's JSON Schema
 * (validate/manifest-schema.ts) by `npm run docs`, so the reference says what
 * validation checks. Each table sits between `<!-- schema-table: <section> -->`
 * and `<!-- /schema-table -->`; the prose around them is written by hand.
 */
import { manifestSchema } from './manifest-schema.js';

type Node = Readonly<Record<string, unknown>>;

/** A table: the schema node whose properties are its rows, and the nested keys that get rows of their own. */
interface TableSpec {
  readonly at: string;
  readonly only?: readonly string[];
  readonly expand?: readonly string[];
}

const tables: Readonly<Record<string, TableSpec>> = {
  mcpGen: { at: '', only: ['mcpGen'] },
  server: { at: '/properties/server' },
  protocol: { at: '/properties/protocol' },
  cache: { at: '/definitions/cache' },
  pagination: { at: '/properties/pagination' },
  notifications: { at: '/properties/notifications' },
  transports: { at: '/properties/transports', expand: ['http'] },
  auth: { at: '/properties/auth' },
  handles: { at: '/properties/handles/additionalProperties' },
  tools: { at: '/properties/tools/additionalProperties' },
  resources: { at: '/properties/resources/additionalProperties' },
  prompts: { at: '/properties/prompts/additionalProperties', expand: ['arguments', 'messages'] },
  config: { at: '/properties/config/additionalProperties' },
  secrets: { at: '/properties/secrets' },
  approvals: { at: '/properties/approvals' },
  store: { at: '/properties/store' },
  telemetry: { at: '/properties/telemetry' },
  lint: { at: '/properties/lint' },
  toolsets: { at: '/properties/toolsets/additionalProperties' },
  review: { at: '/properties/review' },
};

/** The sections of docs/manifest.md that carry a key table: each must be in the document. */
export const referenceTableSections: readonly string[] = Object.keys(tables);

function resolve(pointer: string): Node {
  let node: unknown = manifestSchema;
  for (const segment of pointer.split('/').slice(1)) node = (node as Node)[segment];
  return node as Node;
}

/** Follows `$ref`, keeping the referring node's own annotations. */
function deref(node: Node): Node {
  return typeof node.$ref === 'string' ? { ...deref(resolve(node.$ref.slice(1))), ...node } : node;
}

const code = (value: unknown): string => `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;

function typeText(node: Node): string {
  if (typeof node['x-type'] === 'string') return node['x-type'];
  if (typeof node.$ref === 'string') return typeText(resolve(node.$ref.slice(1)));
  if (node.const !== undefined) return Number.isInteger(node.const) ? 'integer' : typeof node.const;
  if (Array.isArray(node.enum)) return node.enum.map(code).join(' | ');
  if (node.type === 'integer' && typeof node.minimum === 'number')
    return typeof node.maximum === 'number' ? `integer ${node.minimum}–${node.maximum}` : `integer ≥ ${node.minimum}`;
  if (node.type === 'array') return (node.items as Node | undefined)?.type === 'string' ? 'list of strings' : 'list';
  if (node.type === 'object') return 'mapping';
  return String(node.type);
}

/** What validation requires of a value beyond its type: pattern, length, entries. */
function constraints(node: Node): string[] {
  const out: string[] = [];
  if (typeof node.pattern === 'string') out.push(`matches ${code(node.pattern)}`);
  const min = node.minLength;
  const max = node.maxLength;
  if (typeof max === 'number') out.push(min === 1 ? `1–${max} characters` : `at most ${max} characters`);
  else if (min === 1) out.push('not empty');
  if (node.minItems === 1) out.push('at least one entry');
  if (node.propertyNames !== undefined)
    out.push(`each key ${constraints(deref(node.propertyNames as Node)).join(', ')}`);
  return out;
}

function meaning(node: Node): string {
  const rules = constraints(deref(node));
  const prefix = rules.length === 0 ? '' : `${rules.join(', ').replace(/^./, (c) => c.toUpperCase())}. `;
  return `${prefix}${typeof node.description === 'string' ? node.description : ''}`.trim();
}

function requiredOrDefault(node: Node, required: boolean): string {
  if (required) return 'required';
  if (typeof node['x-default'] === 'string') return node['x-default'];
  return node.default === undefined ? 'optional' : code(node.default);
}

const cell = (text: string): string => text.replace(/\|/g, '\\|');

function rows(node: Node, spec: TableSpec, prefix: string): string[] {
  const properties = (node.properties ?? {}) as Readonly<Record<string, Node>>;
  const required = new Set((node.required ?? []) as string[]);
  return Object.entries(properties)
    .filter(([key]) => spec.only === undefined || spec.only.includes(key))
    .flatMap(([key, child]) => {
      const row =
        `| ${cell(code(`${prefix}${key}`))} | ${cell(typeText(child))} | ` +
        `${cell(requiredOrDefault(child, required.has(key)))} | ${cell(meaning(child))} |`;
      if (!spec.expand?.includes(key)) return [row];
      const inner =
        child.type === 'array'
          ? { node: child.items as Node, path: `${key}[].` }
          : child.additionalProperties !== undefined && child.properties === undefined
            ? { node: child.additionalProperties as Node, path: `${key}.<name>.` }
            : { node: child, path: `${key}.` };
      return [row, ...rows(inner.node, { at: spec.at }, `${prefix}${inner.path}`)];
    });
}

/** The Markdown table of one section of docs/manifest.md. */
export function renderReferenceTable(section: string): string {
  const spec = tables[section];
  if (spec === undefined) throw new Error(`docs/manifest.md names an unknown schema table "${section}"`);
  return [
    '| Key | Type | Required / default | Meaning |',
    '| --- | --- | --- | --- |',
    ...rows(resolve(spec.at), spec, ''),
  ].join('\n');
}

/** `doc` (the text of docs/manifest.md) with every schema table rewritten from the schema. */
export function renderManifestReference(doc: string): string {
  return doc.replace(
    /(<!-- schema-table: ([a-zA-Z]+) -->\n)[\s\S]*?(\n<!-- \/schema-table -->)/g,
    (_all, open: string, section: string, close: string) => `${open}${renderReferenceTable(section)}${close}`,
  );
}
