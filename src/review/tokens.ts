import type { ServerModel } from '../model/types.js';

/**
 * The tools as `tools/list` sends them (the part a host puts in front of the
 * model), and an estimate of their token cost: UTF-8 bytes of the compact
 * JSON divided by 4, rounded up. The rule is simple on purpose, so anyone can
 * recount it; on typical English tool descriptions and JSON Schema it is within
 * about 20% of real BPE tokenizers.
 */
export function toolsListCost(model: ServerModel): { bytes: number; tokens: number } {
  const tools = model.tools.map((t) => ({
    name: t.name,
    ...(t.title === null ? {} : { title: t.title }),
    description: t.description,
    inputSchema: t.wireInput,
    ...(t.wireOutput === null ? {} : { outputSchema: t.wireOutput }),
    annotations: t.annotations,
  }));
  const bytes = Buffer.byteLength(JSON.stringify({ tools }), 'utf8');
  return { bytes, tokens: Math.ceil(bytes / 4) };
}
