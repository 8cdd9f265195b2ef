/**
 * The toolset as `tools/list` sends it, and its digest. The registry records
 * the digest at generate time; `mcp-gen verify` recomputes it from a live
 * server's answer, so both sides must build exactly the objects the runtime
 * registers (templates/runtime/register.gen.ts): `title` and `icons` only when
 * set, `outputSchema` only when declared, `annotations` always.
 */
import { createHash } from 'node:crypto';
import { compareText } from '../util/compare.js';
import { hashSortedJson } from '../util/stable-json.js';
import type { ServerModel } from './types.js';

/** One tool descriptor as it appears in a `tools/list` result. */
export type WireTool = Readonly<Record<string, unknown>> & { readonly name: string };

/** The descriptors a generated server sends for `model`, sorted by name. */
export function wireTools(model: ServerModel): WireTool[] {
  return model.tools.map((tool) => ({
    name: tool.name,
    ...(tool.title === null ? {} : { title: tool.title }),
    description: tool.description,
    ...(tool.icons.length === 0 ? {} : { icons: tool.icons }),
    inputSchema: tool.wireInput,
    ...(tool.wireOutput === null ? {} : { outputSchema: tool.wireOutput }),
    annotations: { ...tool.annotations },
  }));
}

/**
 * `sha256:<hex>` over the canonical JSON of the tools sorted by name: keys
 * sorted recursively, compact separators, arrays in their order. Any change to
 * a name, title, description, schema or annotation changes it.
 */
export function toolsetDigest(tools: readonly Readonly<Record<string, unknown>>[]): string {
  const sorted = [...tools].sort((a, b) => compareText(String(a.name), String(b.name)));
  const hash = createHash('sha256');
  hashSortedJson(hash, sorted);
  return `sha256:${hash.digest('hex')}`;
}
