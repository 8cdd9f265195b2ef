/**
 * Emits the sorted registry twice: `registry.gen.ts` for the server (keys in
 * the runtime's fixed order) and `registry.gen.json` for other tools (keys
 * sorted; on one line in a large project, shared/scale.ts). Both come from the
 * same data, so they cannot disagree.
 */
import { generatedPaths } from '../../model/layout.js';
import type { ServerModel } from '../../model/types.js';
import type { Cost } from '../../review/tokens.js';
import { noMemo } from '../../util/memo.js';
import { stableJson, stableJsonParts } from '../../util/stable-json.js';
import { tsBanner } from '../shared/banner.js';
import { type EmitContext, fileOfParts, type GeneratedFile } from '../shared/files.js';
import { toLiteral } from '../shared/literal.js';
import { largeToolSchemas, toolSchemaCount } from '../shared/scale.js';
import { documented, importDeclaration, moduleParts } from '../shared/ts-text.js';
import { registryData } from './data.js';
import { serverJson } from './server-json.js';

export { registryData } from './data.js';
export { serverJson, serverJsonSchemaUrl } from './server-json.js';

/**
 * `src/generated/registry.gen.ts` and `src/generated/registry.gen.json`;
 * `server.json` when the manifest names a registry entry.
 */
export function emitRegistry(model: ServerModel, ctx: EmitContext, costs?: readonly Cost[]): GeneratedFile[] {
  // Each tool's one-line text, which the page digest hashes and a large project's registry.gen.json writes.
  const lines = new Map<unknown, string>();
  const memo = ctx.memo ?? noMemo;
  const data = registryData(model, costs, lines, memo);
  // Shared schemas are written once each and named from every tool schema that holds them under `$defs`;
  // they name one another by `$ref`, never by object, so each body is written whole. Each tool is a constant of
  // its own type: one array literal of a thousand differently shaped objects is a union TypeScript cannot check.
  const names = new Map<object, string>(model.schemas.map((s, i) => [s.wire, `schema${i}`]));
  // A tool's literal names shared schemas, which lie outside `tools:`: a function of its entry for `memo`.
  const literal = (tool: object) => memo.recall('registry.literal', tool, (t) => toLiteral(t, 0, names));
  const statement = (tool: (typeof data.tools)[number], i: number) =>
    documented(`Tool ${JSON.stringify(tool.name)}.`, `const tool${i}: ToolSpec = ${literal(tool)};`);
  // Kept with the index it was written for: a tool added or removed before it renumbers it.
  const tools = data.tools.map((tool, i) => {
    const kept = memo.recall('registry.statement', tool, (t) => ({ i, text: statement(t, i) }));
    return kept.i === i ? kept.text : statement(tool, i);
  });
  for (const [i, tool] of data.tools.entries()) names.set(tool, `tool${i}`);
  const parts = moduleParts(
    tsBanner(ctx),
    [importDeclaration(['RegistrySpec', 'ToolSpec'], './runtime/spec.gen.js', true)],
    [
      ...model.schemas.map((s, i) =>
        documented(
          `Shared schema ${JSON.stringify(s.name)}.`,
          `const schema${i}: Readonly<Record<string, unknown>> = ${toLiteral(s.wire)};`,
        ),
      ),
      ...tools,
      documented(
        'Everything this server offers, sorted by name. Written from the manifest; read by the runtime.',
        `export const registry: RegistrySpec = ${toLiteral(data, 0, names)};`,
      ),
    ],
  );
  const record = serverJson(model);
  return [
    ...(record === null
      ? []
      : [{ path: generatedPaths.serverJson, contents: stableJson(record), ownership: 'generated' as const }]),
    fileOfParts(generatedPaths.registry, parts),
    // Without indentation for a large project: indentation nearly doubles a large registry, and writing it adds to
    // generate's peak memory; only programs read that much JSON.
    fileOfParts(
      generatedPaths.registryJson,
      stableJsonParts(data, toolSchemaCount(data.tools) > largeToolSchemas ? 0 : 2, lines),
    ),
  ];
}
