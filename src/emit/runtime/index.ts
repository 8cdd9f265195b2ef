/**
 * Copies the runtime layer (templates/runtime/*.gen.ts, real TypeScript that
 * is type-checked and unit-tested in mcp-gen) into the generated project,
 * each file under the banner; the four modules every start needs become one.
 * The generated server depends at runtime only on the SDK, Node built-ins
 * and, for OAuth, jose.
 */
import { runtimePath } from '../../model/layout.js';
import type { ServerModel } from '../../model/types.js';
import { tsBanner } from '../shared/banner.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { finalText } from '../shared/project.js';
import { joinedStartTemplate, startModules } from './merge.js';

/** The one runtime file that imports jose; only OAuth projects get it (and the jose dependency). */
const oauthRuntime = 'runtime/oauth.gen.ts';

const [startModule, ...joinedModules] = startModules;

/** `src/generated/runtime/*.gen.ts`, in name order. */
export function emitRuntime(model: ServerModel, ctx: EmitContext): GeneratedFile[] {
  const files: GeneratedFile[] = [];
  for (const [template, text] of ctx.templates) {
    if (!template.startsWith('runtime/') || !template.endsWith('.gen.ts')) continue;
    if (template === oauthRuntime && model.auth.type !== 'oauth') continue;
    if (joinedModules.includes(template)) continue;
    // The start modules ship joined (templates/joined/, written by `npm run docs`), under the entry's name.
    const contents = template === startModule ? templateText(ctx, joinedStartTemplate) : text;
    files.push({ path: runtimePath(template), contents: finalText(`${tsBanner(ctx)}\n${contents}`), ownership: 'generated' });
  }
  return files;
}

function templateText(ctx: EmitContext, name: string): string {
  const text = ctx.templates.get(name);
  if (text === undefined) throw new Error(`runtime template ${name} is missing`);
  return text;
}
