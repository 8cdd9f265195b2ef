/**
 * Emits `src/generated/bundle-shims.gen.ts`, which the project's `bundle` step
 * puts in place of the SDK's `@modelcontextprotocol/server/_shims` (an esbuild
 * alias; see `bundleArgs`). The SDK's Node shim imports its ajv provider, and
 * with it all of ajv, when the server starts, although a generated server
 * validates tool schemas with code emitted at generate time
 * (validators.gen.ts). In the bundle the provider is loaded on its first use
 * instead: a schema mcp-gen could not emit, or a form a 2025-11-25 client
 * answers. The plain `tsc` output does not use this module at all.
 */
import { generatedPaths } from '../../model/layout.js';
import { tsBanner } from '../shared/banner.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { finalText } from '../shared/ts-text.js';

const shims = [
  "import process from 'node:process';",
  "import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';",
  '',
  "/** The SDK's default JSON Schema validator (ajv), loaded on the first schema it is asked to compile. */",
  'export class DefaultJsonSchemaValidator {',
  '  private engine: AjvJsonSchemaValidator | undefined;',
  '',
  "  getValidator(schema: Parameters<AjvJsonSchemaValidator['getValidator']>[0]): " +
    "ReturnType<AjvJsonSchemaValidator['getValidator']> {",
  '    if (this.engine === undefined) {',
  '      // The bundler turns this require into a module evaluated on this first call; nothing else loads ajv.',
  "      const ajv = require('@modelcontextprotocol/server/validators/ajv') as typeof " +
    "import('@modelcontextprotocol/server/validators/ajv');",
  '      this.engine = new ajv.AjvJsonSchemaValidator();',
  '    }',
  '    return this.engine.getValidator(schema);',
  '  }',
  '}',
  '',
  'export { process };',
  '',
].join('\n');

/** `src/generated/bundle.gen.mjs`: the bundler step of `npm run build` (templates/project/bundle.gen.mjs). */
export function emitBundleScript(ctx: EmitContext): GeneratedFile {
  const template = 'project/bundle.gen.mjs';
  const text = ctx.templates.get(template);
  if (text === undefined) throw new Error(`project template ${template} is missing`);
  return {
    path: generatedPaths.bundleScript,
    contents: finalText(`${tsBanner(ctx)}\n${text}`),
    ownership: 'generated',
    copiedFrom: template,
  };
}

/** \`src/generated/bundle-shims.gen.ts\`. */
export function emitBundleShims(ctx: EmitContext): GeneratedFile {
  return { path: generatedPaths.bundleShims, contents: `${tsBanner(ctx)}\n${shims}`, ownership: 'generated' };
}
