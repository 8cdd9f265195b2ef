// The server of http-fast-path.test.ts: its manifest and the handlers written over its stubs.

export const manifest = `mcpGen: 1
server: { name: fastpath, version: 1.0.0 }
transports:
  http: { host: 127.0.0.1, port: 3000, path: /mcp, shutdownGrace: 2s }
tools:
  add:
    description: Adds two integers.
    annotations: { readOnlyHint: true, openWorldHint: false }
    input:
      type: object
      properties: { a: { type: integer }, b: { type: integer } }
      required: [a, b]
      additionalProperties: false
    output:
      type: object
      properties: { sum: { type: integer } }
      required: [sum]
      additionalProperties: false
  boom:
    description: Throws.
    annotations: { readOnlyHint: true, openWorldHint: false }
    input: { type: object, properties: {}, additionalProperties: false }
  badout:
    description: Answers what its output schema forbids.
    annotations: { readOnlyHint: true, openWorldHint: false }
    input: { type: object, properties: {}, additionalProperties: false }
    output:
      type: object
      properties: { n: { type: integer } }
      required: [n]
  slow:
    description: Sleeps past its timeout, ignoring its signal.
    annotations: { readOnlyHint: true, openWorldHint: false }
    timeout: 1s
    input: { type: object, properties: {}, additionalProperties: false }
  later:
    description: Answers its tag after the given time.
    annotations: { readOnlyHint: true, openWorldHint: false }
    input:
      type: object
      properties: { tag: { type: string }, ms: { type: integer } }
      required: [tag, ms]
      additionalProperties: false
  wait:
    description: Waits until its signal aborts.
    annotations: { readOnlyHint: true, openWorldHint: false }
    input:
      type: object
      properties: { tag: { type: string } }
      required: [tag]
      additionalProperties: false
`;

export const handlers = {
  'src/handlers/tools/add.ts': `import type { ToolHandler } from '../../generated/index.gen.js';
export const addHandler: ToolHandler<'add'> = async (input) => ({ sum: input.a + input.b });
`,
  'src/handlers/tools/boom.ts': `import type { ToolHandler } from '../../generated/index.gen.js';
export const boomHandler: ToolHandler<'boom'> = async () => { throw new Error('kaput'); };
`,
  'src/handlers/tools/badout.ts': `import type { ToolHandler } from '../../generated/index.gen.js';
export const badoutHandler: ToolHandler<'badout'> = async () => ({ n: 'not a number' }) as never;
`,
  'src/handlers/tools/slow.ts': `import type { ToolHandler } from '../../generated/index.gen.js';
export const slowHandler: ToolHandler<'slow'> = async () => {
  await new Promise((r) => setTimeout(r, 5000));
  return 'late';
};
`,
  'src/handlers/tools/later.ts': `import type { ToolHandler } from '../../generated/index.gen.js';
export const laterHandler: ToolHandler<'later'> = async (input) => {
  await new Promise((r) => setTimeout(r, input.ms));
  return input.tag;
};
`,
  'src/handlers/tools/wait.ts': `import type { ToolHandler } from '../../generated/index.gen.js';
export const waitHandler: ToolHandler<'wait'> = async (input, ctx) => {
  process.stderr.write(\`started \${input.tag}\\n\`);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 60_000);
    ctx.signal.addEventListener('abort', () => {
      process.stderr.write(\`aborted \${input.tag} at \${Date.now()}: \${String(ctx.signal.reason)}\\n\`);
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
  return 'late';
};
`,
};
