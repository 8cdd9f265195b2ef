/**
 * Emits `src/generated/bindings.gen.ts`: the handler of each tool bound to an upstream HTTP request (`http:`) that
 * has no handler file of its own, each one call of `bindTool` (runtime/upstream.gen.ts) with the binding as data.
 * Nothing when no tool is bound, so servers without bindings ship neither file.
 */
import type { HttpBindingSpec } from '../../../templates/runtime/upstream-spec.gen.js';
import { generatedPaths } from '../../model/layout.js';
import { bodyKind } from '../../model/media.js';
import type { ServerModel, ToolModel } from '../../model/types.js';
import type { HandlerPlan } from '../../plan/index.js';
import { tsBanner } from '../shared/banner.js';
import { withFileParts } from './file-parts.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { singleQuoted, toLiteral } from '../shared/literal.js';
import { documented, finalText, importDeclaration, moduleText } from '../shared/ts-text.js';
import { noMemo } from '../../util/memo.js';

/** The binding of `tool` as the runtime's HttpBindingSpec. */
function bindingData(tool: ToolModel): HttpBindingSpec | null {
  const http = tool.http;
  if (http === null) return null;
  const encoding = withFileParts(tool, http.encoding);
  return {
    tool: tool.name,
    method: http.method,
    path: http.path,
    ...(http.baseUrl === null ? {} : { baseUrl: http.baseUrl }),
    args: http.args.map((a) => ({ ...a })),
    body: http.body,
    ...(bodyKind(http.body) === 'bytes' ? { bytes: true } : {}),
    ...(http.accept === 'application/json' ? {} : { accept: http.accept }),
    ...(Object.keys(encoding).length === 0 ? {} : { encoding }),
    result: http.result,
    errorMessage: http.errorMessage,
    structured: tool.output !== null,
    ...(http.outputCheck === 'strict' ? { outputCheck: 'strict' } : {}),
    ...(http.security === null ? {} : { security: http.security }),
  };
}

/** `src/generated/bindings.gen.ts`, or nothing when no handler of `handlers` is a binding. */
export function emitBindings(model: ServerModel, handlers: readonly HandlerPlan[], ctx: EmitContext): GeneratedFile[] {
  const upstream = model.upstream;
  const bound = handlers.filter((h) => h.kind === 'tool' && h.action === 'bind');
  if (upstream === null || bound.length === 0) return [];
  // By name, once: a large API binds a thousand tools.
  const tools = new Map(model.tools.map((t) => [t.name, t]));
  const checked = bound.some((h) => (tools.get(h.name)?.output ?? null) !== null);
  const statements = [
    documented(
      'The API these tools call: the config variables of its base URL and credential.',
      `const upstream: UpstreamSpec = ${toLiteral({
        baseUrl: upstream.baseUrl,
        credential: upstream.credential,
        ...(Object.keys(upstream.credentials).length === 0 ? {} : { credentials: upstream.credentials }),
      })};`,
    ),
    ...(checked
      ? [
          documented(
            "Each tool's output schema, against which its answer is checked.",
            'const outputOf = answerSchemas(registry, validators);',
          ),
        ]
      : []),
  ];
  // A tool's binding as a literal is a function of the tool alone.
  const memo = ctx.memo ?? noMemo;
  const literalOf = (tool: ToolModel) =>
    memo.recall('bindings.literal', tool, (t) => {
      const data = bindingData(t);
      return data === null ? null : toLiteral(data);
    });
  for (const handler of bound) {
    const tool = tools.get(handler.name);
    const literal = tool === undefined ? null : literalOf(tool);
    if (tool === undefined || literal === null || tool.http === null) continue;
    statements.push(
      documented(
        `Tool "${tool.name}": ${tool.http.method} ${tool.http.path}. Write ${handler.path} to replace this binding.`,
        `export const ${handler.handler}: ToolHandlers[${singleQuoted(tool.name)}] = bindTool(upstream, ` +
          `${literal}${tool.output === null ? '' : `, outputOf(${singleQuoted(tool.name)})`});`,
      ),
    );
  }
  const text = moduleText(
    [
      importDeclaration(
        [...(checked ? ['answerSchemas'] : []), 'bindTool', 'type UpstreamSpec'],
        './runtime/upstream.gen.js',
      ),
      ...(checked ? [importDeclaration(['registry'], './registry.gen.js')] : []),
      importDeclaration(['ToolHandlers'], './types.gen.js', true),
      ...(checked ? [importDeclaration(['validators'], './validators.gen.js')] : []),
    ],
    statements,
  );
  return [{ path: generatedPaths.bindings, contents: finalText(`${tsBanner(ctx)}\n${text}`), ownership: 'generated' }];
}
