import { wireTool } from '../model/toolset.js';
import type { ServerModel, ToolModel } from '../model/types.js';
import { type Memo, noMemo } from '../util/memo.js';

/** The size of some JSON: UTF-8 bytes, and the token estimate (bytes / 4, rounded up). */
export interface Cost {
  readonly bytes: number;
  readonly tokens: number;
}

/** One tool's descriptor in `tools/list`, measured alone. */
export interface ToolCost extends Cost {
  readonly name: string;
}

/**
 * Each tool as `tools/list` sends it (the part a host puts in front of the model), measured as compact JSON, in
 * model order. The token estimate is UTF-8 bytes divided by 4, rounded up: simple on purpose, so anyone can recount
 * it; on typical English tool descriptions and JSON Schema it is within about 20% of real BPE tokenizers.
 * `known` (see `jsonBytes`) may be shared with `schemaCosts` of the same model: the schemas are the same objects.
 */
export function toolCosts(
  model: ServerModel,
  known: WeakMap<object, number> = new WeakMap(),
  memo: Memo = noMemo,
): ToolCost[] {
  return model.tools.map((entry) =>
    memo.recall('review.tool-cost', entry, (t) => {
      const tool = wireTool(t);
      const bytes = jsonBytes(tool, known, new Set());
      return { name: tool.name, bytes, tokens: Math.ceil(bytes / 4) };
    }),
  );
}

/** The size of one tool's input or output schema as tools/list sends it (compact JSON, UTF-8 bytes). */
export interface SchemaCost {
  readonly tool: string;
  readonly part: 'input' | 'output';
  readonly bytes: number;
}

/** Every tool's input and output schema by size, heaviest first (equal sizes by tool, then part). */
export function schemaCosts(
  model: ServerModel,
  known: WeakMap<object, number> = new WeakMap(),
  memo: Memo = noMemo,
): SchemaCost[] {
  const measure = (t: ToolModel): SchemaCost[] => {
    const tool = wireTool(t);
    const input = { tool: tool.name, part: 'input' as const, bytes: jsonBytes(tool.inputSchema, known, new Set()) };
    if (tool.outputSchema === undefined) return [input];
    return [input, { tool: tool.name, part: 'output', bytes: jsonBytes(tool.outputSchema, known, new Set()) }];
  };
  const out = model.tools.flatMap((tool) => memo.recall('review.schema-costs', tool, measure));
  const key = (c: SchemaCost) => `${c.tool}\u0000${c.part}`;
  return out.sort((a, b) => b.bytes - a.bytes || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** The cost of `{"tools":[...]}` holding exactly these tools: 12 bytes of frame, and a comma between two tools. */
export function listCost(tools: readonly Cost[]): Cost {
  let bytes = 12 + Math.max(tools.length - 1, 0);
  for (const tool of tools) bytes += tool.bytes;
  return { bytes, tokens: Math.ceil(bytes / 4) };
}

/**
 * The most bytes one `tools/list` page holds (1 MiB): a tenth of the 10 MiB line the official client's stdio
 * transport buffers, so a page fits every client with room for its envelope, and a large API's list still takes
 * few round trips.
 */
export const pageByteBudget = 1024 * 1024;

/**
 * What a `tools/list` response line holds beyond the page's `{"tools":[...]}`: the JSON-RPC envelope and id,
 * `nextCursor`, `resultType`, cache hints and the newline. A few hundred bytes; counted as 1 KiB, so that a page
 * the review lets through fits a client that reads the whole line into one buffer.
 */
export const lineFrameBytes = 1024;

/**
 * Where each `tools/list` page starts (the first at 0): a page takes the next tool until it holds `size` tools or
 * the tool would take it past `budget` bytes; a tool bigger than `budget` alone has a page of its own.
 */
export function pageStarts(tools: readonly Cost[], size: number, budget = pageByteBudget): number[] {
  const starts = [0];
  let count = 0;
  let bytes = 12;
  tools.forEach((tool, i) => {
    if (count > 0 && (count === size || bytes + 1 + tool.bytes > budget)) {
      starts.push(i);
      count = 0;
      bytes = 12;
    }
    bytes += tool.bytes + (count > 0 ? 1 : 0);
    count += 1;
  });
  return starts;
}

/** The whole `tools/list` result of `model`, every tool listed. */
export function toolsListCost(model: ServerModel): Cost {
  return listCost(toolCosts(model));
}

/**
 * `utf8Length(JSON.stringify(value))`, each object counted once however often it recurs: tool schemas share
 * their definitions (a large API's tools/list reaches each distinct object several times over),
 * and the model is frozen, so a shared object's length is the same at every use. Anything but plain data (a
 * `toJSON`, another prototype) is measured by JSON.stringify itself; a cycle throws, as JSON.stringify does.
 */
function jsonBytes(value: unknown, known: WeakMap<object, number>, open: Set<object>): number {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return JSON.stringify(value).length;
  if (typeof value === 'string') return utf8Length(JSON.stringify(value));
  if (typeof value !== 'object') return utf8Length(JSON.stringify(value) ?? '');
  const cached = known.get(value);
  if (cached !== undefined) return cached;
  const prototype = Object.getPrototypeOf(value) as unknown;
  const plain = Array.isArray(value) ? prototype === Array.prototype : prototype === Object.prototype;
  if (!plain || typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return utf8Length(JSON.stringify(value) ?? '');
  if (open.has(value)) throw new TypeError('Converting circular structure to JSON');
  open.add(value);
  let bytes = 2;
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) bytes += skipped(item) ? 5 : jsonBytes(item, known, open) + 1;
    if (value.length > 0) bytes -= 1;
  } else {
    let members = 0;
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (skipped(item)) continue;
      bytes += utf8Length(JSON.stringify(key)) + 1 + jsonBytes(item, known, open) + 1;
      members += 1;
    }
    if (members > 0) bytes -= 1;
  }
  open.delete(value);
  known.set(value, bytes);
  return bytes;
}

/** What JSON leaves out of an object and writes as `null` in an array. */
function skipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/**
 * `Buffer.byteLength(text, 'utf8')`, counted from the non-ASCII runs alone: one non-ASCII character makes the
 * JSON a two-byte string, which Buffer.byteLength walks unit by unit, slowly on a large tools/list. Each unit
 * adds what its UTF-8 form has beyond one byte; a surrogate pair is 4 bytes, a lone surrogate 3 (U+FFFD), as
 * Buffer.byteLength counts them.
 */
export function utf8Length(text: string): number {
  let extra = 0;
  const nonAscii = /[\u0080-\uffff]+/g;
  for (let match = nonAscii.exec(text); match !== null; match = nonAscii.exec(text)) {
    const run = match[0];
    for (let i = 0; i < run.length; i += 1) {
      const unit = run.charCodeAt(i);
      const next = run.charCodeAt(i + 1);
      if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        extra += 2;
        i += 1;
      } else extra += unit < 0x800 ? 1 : 2;
    }
  }
  return text.length + extra;
}
