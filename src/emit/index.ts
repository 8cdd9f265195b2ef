/**
 * emit: turns the model and the plan into files, in memory.
 * In: ServerModel, Plan, existing handler texts, EmitContext. Out: every
 * output file (in plan order) plus findings. Emitters return data; nothing
 * here touches the disk.
 */
import type { Finding } from '../diagnostics/index.js';
import type { ServerModel } from '../model/types.js';
import type { Plan } from '../plan/index.js';
import { compareText } from '../util/compare.js';
import { stableJson } from '../util/stable-json.js';
import { emitFacade } from './facade/index.js';
import { checkHandler, renameHandler } from './handlers/reconcile.js';
import { emitStub } from './handlers/stubs.js';
import { emitRegistry } from './registry/index.js';
import { emitRuntime } from './runtime/index.js';
import { emitScaffold } from './scaffold/index.js';
import { emitServer } from './server/index.js';
import type { EmitContext, GeneratedFile } from './shared/files.js';
import { emitContractTests } from './tests/index.js';
import { emitTypes } from './types/index.js';

export type { EmitContext, GeneratedFile, Ownership } from './shared/files.js';
export { bannerMark } from './shared/banner.js';
export { registryData } from './registry/index.js';

/** Where the list of generated files is kept; stale-file cleanup trusts only files listed there. */
export const markerFile = 'src/generated/.mcp-gen';

/** Every output file and every finding of one run. */
export interface EmitResult {
  readonly files: readonly GeneratedFile[];
  readonly findings: readonly Finding[];
}

/** Runs every emitter; files come back sorted by path, whatever order emitters ran in. */
export async function emitProject(model: ServerModel, plan: Plan, existing: ReadonlyMap<string, string>, ctx: EmitContext): Promise<EmitResult> {
  const findings: Finding[] = [...plan.findings];
  const types = await emitTypes(model, ctx);
  findings.push(...types.diagnostics);
  const generated: GeneratedFile[] = [
    types.file,
    emitFacade(model, ctx),
    ...emitRegistry(model, ctx),
    emitServer(model, ctx),
    ...emitRuntime(model, ctx),
    ...emitContractTests(model, ctx),
  ];
  const marker: GeneratedFile = {
    path: markerFile,
    contents: stableJson({ generatedBy: 'mcp-gen', manifest: ctx.manifestPath, files: [...generated.map((f) => f.path), markerFile].sort(compareText) }),
    ownership: 'generated',
  };

  const handlers: GeneratedFile[] = [];
  for (const handler of plan.handlers) {
    if (handler.action === 'create') {
      handlers.push(emitStub(model, handler));
    } else if (handler.action === 'keep') {
      findings.push(...checkHandler(handler, existing.get(handler.path) ?? '').findings);
    } else {
      const result = renameHandler(handler, existing.get(handler.from?.path ?? '') ?? '');
      findings.push(...result.findings);
      if (result.file !== null) handlers.push(result.file);
    }
  }
  const files = [...generated, marker, ...emitScaffold(model, ctx), ...handlers].sort((a, b) => compareText(a.path, b.path));
  return { files, findings };
}
