import { describe, expect, it } from 'vitest';
import { mergeModules } from '../../src/emit/runtime/merge.js';

// Joining runtime modules: imports between the parts go, the rest are merged, nothing is shadowed.
describe('mergeModules', () => {
  const a = `/** Part a. */
import { Transform } from 'node:stream';
import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { helper } from './b.gen.js';
import type { Spec } from './spec.gen.js';

export function run(spec: Spec, ctx: ServerContext): McpServer {
  return helper(spec, ctx, Transform);
}
`;
  const b = `/** Part b. */
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { ResourceNotFoundError as SdkNotFound } from '@modelcontextprotocol/server';
import { ToolError } from './errors.gen.js';
import type { Spec } from './spec.gen.js';

export function helper(spec: Spec, ctx: ServerContext, stream: unknown): McpServer {
  throw new ToolError(String([spec, ctx, stream, SdkNotFound]));
}
`;

  it('drops imports between the parts, merges the rest by specifier, and keeps each body and doc comment', () => {
    expect(mergeModules('/** Joined. */', [['runtime/a.gen.ts', a], ['runtime/b.gen.ts', b]])).toBe(`/** Joined. */
import { Transform } from 'node:stream';
import { McpServer, ResourceNotFoundError as SdkNotFound, type ServerContext } from '@modelcontextprotocol/server';
import { ToolError } from './errors.gen.js';
import type { Spec } from './spec.gen.js';

// ---- a.gen.ts ----

/** Part a. */

export function run(spec: Spec, ctx: ServerContext): McpServer {
  return helper(spec, ctx, Transform);
}

// ---- b.gen.ts ----

/** Part b. */

export function helper(spec: Spec, ctx: ServerContext, stream: unknown): McpServer {
  throw new ToolError(String([spec, ctx, stream, SdkNotFound]));
}
`);
  });

  it('refuses a name declared in two parts, or imported from two places', () => {
    const twice = `import { x } from './x.gen.js';\nexport const run = 1;\n`;
    expect(() => mergeModules('', [['runtime/a.gen.ts', a], ['runtime/c.gen.ts', twice]])).toThrow('runtime/c.gen.ts: "run" is also declared in runtime/a.gen.ts');
    const clash = `import { Transform } from 'node:other';\nexport const z = Transform;\n`;
    expect(() => mergeModules('', [['runtime/a.gen.ts', a], ['runtime/d.gen.ts', clash]])).toThrow('"Transform" is imported from node:other and also comes from node:stream');
  });

  it('refuses default and namespace imports, which it cannot merge', () => {
    expect(() => mergeModules('', [['runtime/e.gen.ts', `import * as z from 'zod';\nexport const e = z;\n`]])).toThrow('runtime/e.gen.ts: runtime modules use named imports only');
  });
});
