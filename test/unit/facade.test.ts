import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleExports } from '../../src/emit/facade/exports.js';
import { repoRoot } from '../support/golden.js';

// The facade re-exports what the runtime module itself declares; this is the parse that reads it.
describe('moduleExports', () => {
  it("reads handler.gen.ts's exports, without the runtime's own StartupError", () => {
    const text = readFileSync(path.join(repoRoot, 'templates', 'runtime', 'handler.gen.ts'), 'utf8');
    expect(moduleExports(text)).toEqual({
      values: [
        'acceptedContent',
        'inputRequired',
        'inputResponse',
        'isInputRequiredResult',
        'notImplemented',
        'ResourceNotFoundError',
        'SdkResult',
        'sdkResult',
        'ToolError',
      ],
      types: [
        'AnySdkResult',
        'ErrorKind',
        'HandlerContext',
        'ListName',
        'Notify',
        'Principal',
        'PromptMessageReply',
        'PromptReply',
        'PromptSdkResult',
        'ReadyCheck',
        'RequestInput',
        'ResourceContent',
        'ResourceReply',
        'ResourceSdkResult',
        'SetupTools',
        'ToolContent',
        'ToolSdkResult',
      ],
    });
  });

  it("reads testing.gen.ts's exports: the facade types testContext itself, so makeTestContext stays out", () => {
    const text = readFileSync(path.join(repoRoot, 'templates', 'runtime', 'testing.gen.ts'), 'utf8');
    expect(moduleExports(text)).toEqual({
      values: ['expectOutput', 'expectSdkResult', 'readHandle'],
      types: ['TestAnswer', 'TestContextOptions'],
    });
  });

  it('reads declarations and export lists, skips @internal, and refuses a form it does not know', () => {
    const text = [
      '/** A thing. */',
      'export class Thing {}',
      '/**',
      ' * Kept for the runtime.',
      ' * @internal',
      ' */',
      'export function hidden(): void {}',
      "export { a, b as c, type D } from './x.js';",
      "export type { E } from './y.js';",
      'export interface F {}',
      'const g = 1;',
      'export async function h(): Promise<void> {}',
    ].join('\n');
    expect(moduleExports(text)).toEqual({ values: ['a', 'c', 'h', 'Thing'], types: ['D', 'E', 'F'] });
    expect(() => moduleExports('export default 1;\n')).toThrow('cannot read the export "export default 1;"');
  });
});
