/**
 * Emits the sorted registry twice: `registry.gen.ts` for the server (keys in
 * the runtime's fixed order) and `registry.gen.json` for other tools (keys
 * sorted). Both come from the same data, so they cannot disagree.
 */
import { generatedPaths } from '../../model/layout.js';
import type { ServerModel } from '../../model/types.js';
import { stableJson } from '../../util/stable-json.js';
import { tsBanner } from '../shared/banner.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { toLiteral } from '../shared/literal.js';
import { documented, finalText, importDeclaration, moduleText } from '../shared/ts-text.js';
import { registryData } from './data.js';
import { serverJson } from './server-json.js';

export { registryData } from './data.js';
export { serverJson, serverJsonSchemaUrl } from './server-json.js';

/**
 * `src/generated/registry.gen.ts` and `src/generated/registry.gen.json`;
 * `server.json` when the manifest names a registry entry.
 */
export function emitRegistry(model: ServerModel, ctx: EmitContext): GeneratedFile[] {
  const data = registryData(model);
  const text = moduleText(
    [importDeclaration(['RegistrySpec'], './runtime/spec.gen.js', true)],
    [
      documented(
        'Everything this server offers, sorted by name. Written from the manifest; read by the runtime.',
        `export const registry: RegistrySpec = ${toLiteral(data)};`,
      ),
    ],
  );
  const record = serverJson(model);
  return [
    ...(record === null
      ? []
      : [{ path: generatedPaths.serverJson, contents: stableJson(record), ownership: 'generated' as const }]),
    { path: generatedPaths.registry, contents: finalText(`${tsBanner(ctx)}\n${text}`), ownership: 'generated' },
    { path: generatedPaths.registryJson, contents: stableJson(data), ownership: 'generated' },
  ];
}
