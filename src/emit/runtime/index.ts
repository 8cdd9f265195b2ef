/**
 * Copies the runtime layer (templates/runtime/*.gen.ts, real TypeScript that
 * is type-checked and tested in mcp-gen) into the generated project, each file
 * under the banner: the core every server needs, plus the optional modules of
 * the features its manifest uses (see modules.ts). The generated server
 * depends at runtime only on the SDK, Node built-ins and, for OAuth, jose.
 */
import { runtimePath } from '../../model/layout.js';
import type { ServerModel } from '../../model/types.js';
import { tsBanner } from '../shared/banner.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { finalText } from '../shared/ts-text.js';
import { runtimeFeatures } from './features.js';
import { runtimeModules } from './modules.js';

export { runtimeFeatures, type RuntimeFeatures } from './features.js';
export {
  facadeExports,
  moduleSlots,
  runtimeModules,
  type RuntimeModuleName,
  type RuntimeSlot,
} from './modules.js';

/** `src/generated/runtime/*.gen.ts`, in name order. */
export function emitRuntime(model: ServerModel, ctx: EmitContext): GeneratedFile[] {
  return runtimeModules(runtimeFeatures(model)).map((name) => {
    const template = `runtime/${name}.gen.ts`;
    const text = ctx.templates.get(template);
    if (text === undefined) throw new Error(`runtime template ${template} is missing`);
    return {
      path: runtimePath(template),
      contents: finalText(`${tsBanner(ctx)}\n${text}`),
      ownership: 'generated',
      copiedFrom: template,
    };
  });
}
