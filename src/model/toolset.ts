/**
 * The toolset as `tools/list` sends it, and its digest. The registry records
 * the digest at generate time; `mcp-gen verify` recomputes it from a live
 * server's answer. Each tool is its listing (listing.ts, which the registry
 * carries and the runtime registers as it is), its name and its schemas.
 */
import { createHash } from 'node:crypto';
import { compareText } from '../util/compare.js';
import { hashSortedJson } from '../util/stable-json.js';
import { toolListing } from './listing.js';
import type { ServerModel, ToolModel } from './types.js';

/** One tool descriptor as it appears in a `tools/list` result. */
export type WireTool = Readonly<Record<string, unknown>> & { readonly name: string };

/** The descriptors a generated server sends for `model`, sorted by name. */
export function wireTools(model: ServerModel): WireTool[] {
  return model.tools.map(wireTool);
}

/** One tool as `tools/list` sends it. */
export function wireTool(tool: ToolModel): WireTool {
  return {
    name: tool.name,
    ...toolListing(tool),
    inputSchema: tool.wireInput,
    ...(tool.wireOutput === null ? {} : { outputSchema: tool.wireOutput }),
  };
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

/** The toolsets a deployment lists without choosing: those marked `default: true`, or every one if none is. */
export function defaultToolsets(model: ServerModel): readonly string[] {
  const marked = model.toolsets.filter((t) => t.default);
  return (marked.length === 0 ? model.toolsets : marked).map((t) => t.name);
}

/** The tools a deployment lists without choosing toolsets: those of the default toolsets, and those in none. */
export function defaultTools(model: ServerModel): readonly ToolModel[] {
  const chosen = defaultToolsets(model);
  return model.tools.filter((t) => t.toolsets.length === 0 || t.toolsets.some((name) => chosen.includes(name)));
}
