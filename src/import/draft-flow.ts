/**
 * A large draft's schemas in JSON flow style. JSON is YAML: each tool's `input` and `output` and each shared
 * schema is written by `JSON.stringify`, indented under its key, and the `yaml` library writes everything around
 * it (names, titles, descriptions, notes). Building the library's nodes for every keyword of every schema is most
 * of the cost of rendering a large API's draft, and the parse of a flow body after an edit is cheaper too.
 * Below `flowDraftChars` a draft stays in block style throughout: a person curates it by hand.
 */
import { isRecord } from '../util/guards.js';

/** The draft size (compact JSON of its tools and schemas, characters) from which schemas are written as JSON. */
export const flowDraftChars = 1024 * 1024;

/** A note of the draft (draft.ts `DraftNote`): a comment before the key at `path`. */
interface Note {
  readonly path: readonly string[];
}

/** The keys of a tool whose values are schemas. */
const toolSchemaKeys = ['input', 'output'] as const;

/** True when the tools' and shared schemas' JSON reaches `flowDraftChars` (counted until it does). */
export function isLargeDraft(data: Readonly<Record<string, unknown>>): boolean {
  let length = 0;
  for (const section of ['schemas', 'tools']) {
    const entries = data[section];
    if (entries === null || typeof entries !== 'object') continue;
    for (const value of Object.values(entries)) {
      length += JSON.stringify(value ?? null).length;
      if (length >= flowDraftChars) return true;
    }
  }
  return false;
}

/**
 * One entry of `section` as `renderBlock` writes it, with its schema bodies in flow style; null when it has none
 * to write so (another section, a note inside a schema, or text the library wrote differently than expected),
 * and the caller writes the whole entry in block style.
 */
export function renderFlowEntry<N extends Note>(
  section: string,
  name: string,
  value: unknown,
  notes: readonly N[],
  renderBlock: (data: Readonly<Record<string, unknown>>, notes: readonly N[]) => string,
): string | null {
  if (!isRecord(value)) return null;
  const inside = (key: string | null) => (n: N) =>
    n.path.length > (key === null ? 1 : 2) && (key === null || n.path[1] === key);
  if (section === 'schemas') {
    if (notes.some(inside(null))) return null;
    const text = renderBlock({ [name]: {} }, notes);
    return text.endsWith(': {}\n') ? `${text.slice(0, -3)}${flowJson(value, 0)}\n` : null;
  }
  if (section !== 'tools') return null;
  const keys = toolSchemaKeys.filter((key) => isRecord(value[key]) && !notes.some(inside(key)));
  if (keys.length === 0) return null;
  const hollow: Record<string, unknown> = { ...value };
  for (const key of keys) hollow[key] = {};
  const lines = renderBlock({ [name]: hollow }, notes).split('\n');
  for (const key of keys) {
    // The entry's keys sit at two spaces; a block scalar's or a comment's lines never read exactly so.
    const at = lines.indexOf(`  ${key}: {}`);
    if (at < 0 || lines.indexOf(`  ${key}: {}`, at + 1) >= 0) return null;
    lines[at] = `  ${key}: ${flowJson(value[key], 2)}`;
  }
  return lines.join('\n');
}

/** The longest collection written on one line: a property's `{"type": "string", "format": "uri"}` reads best so. */
const flatChars = 80;

/**
 * `value` as JSON for a key at `indent` spaces: a collection whose JSON is short on one line, a longer one with an
 * item per line, every line after the first two spaces deeper than the key, as YAML wants a flow collection's lines
 * inside a block mapping. JSON escapes every line break inside a string. Written bottom-up, each value once.
 */
export function flowJson(value: unknown, indent: number): string {
  return flowText(value, indent + 2, 0).text;
}

/** `value`'s text at `depth` (its items at `depth + 2`), and whether it is one line (then its text is compact). */
function flowText(value: unknown, indent: number, depth: number): { text: string; flat: boolean } {
  if (value === null || typeof value !== 'object') return { text: JSON.stringify(value) ?? 'null', flat: true };
  const list = Array.isArray(value);
  const items: string[] = [];
  const compact: string[] = [];
  let flat = true;
  let length = 2;
  for (const key of list ? value.keys() : Object.keys(value)) {
    const item: unknown = (value as Record<string | number, unknown>)[key];
    if (!list && (item === undefined || typeof item === 'function')) continue;
    const inner = flowText(item === undefined || typeof item === 'function' ? null : item, indent, depth + 2);
    const head = list ? '' : `${JSON.stringify(key)}: `;
    items.push(`${head}${inner.text}`);
    if (flat && inner.flat) {
      compact.push(`${head}${inner.text}`);
      length += head.length + inner.text.length + 2;
    }
    flat &&= inner.flat && length <= flatChars;
  }
  const [open, close] = list ? ['[', ']'] : ['{', '}'];
  if (items.length === 0) return { text: `${open}${close}`, flat: true };
  if (flat) return { text: `${open}${compact.join(', ')}${close}`, flat: true };
  const pad = ' '.repeat(indent + depth + 2);
  return { text: `${open}\n${pad}${items.join(`,\n${pad}`)}\n${' '.repeat(indent + depth)}${close}`, flat: false };
}
