import type { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import path from 'node:path';
import { generateAndCompile, repoRoot } from './harness.js';

// The guarded fixture (bearer auth, scopes, a handle kind, a tool that needs approval) with real handlers.

export const guardedManifest = path.join(repoRoot, 'test', 'fixtures', 'runtime', 'guarded.yaml');

/** Three principals: alice and carol may write, bob may only read. */
export const tokens = {
  alice: 'alice-token-0123456789',
  bob: 'bob-token-0123456789abcdef',
  carol: 'carol=token=with=equals=',
} as const;
export const tokensEnv =
  `${tokens.alice}=alice:items.read,items.write; ` +
  `${tokens.bob}=bob:items.read;${tokens.carol}=carol:items.read,items.write`;

/** 32+ byte keys, so nothing is ephemeral and a test can seal state with the server's key. */
export const stateKey = 'guarded-state-key-0123456789abcdef-0123';
export const handleKey = 'guarded-handle-key-0123456789abcdef-012';

// delete_item appends one line per run to the file named by GUARDED_CALLS: the test counts handler runs there.
export const guardedHandlers: Readonly<Record<string, string>> = {
  'src/handlers/tools/delete_item.ts': `import { appendFileSync, readFileSync } from 'node:fs';
import type { ToolHandler } from '../../generated/index.gen.js';

export const deleteItemHandler: ToolHandler<'delete_item'> = async (input, ctx) => {
  const log = process.env.GUARDED_CALLS ?? '';
  appendFileSync(log, \`\${ctx.principal.id} \${JSON.stringify(input)}\\n\`);
  const runs = readFileSync(log, 'utf8').trim().split('\\n').length;
  return \`deleted \${input.id} for \${ctx.principal.id} (run \${runs})\`;
};
`,
  'src/handlers/tools/read_item.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

export const readItemHandler: ToolHandler<'read_item'> = async (input, ctx) =>
  \`item \${input.id} read by \${ctx.principal.id} with scopes \${ctx.principal.scopes.join(' ')}\`;
`,
  'src/handlers/tools/start_draft.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

export const startDraftHandler: ToolHandler<'start_draft'> = async (input, ctx) => ({
  draft: ctx.handles.item_draft.issue(\`draft-\${input.name}\`),
});
`,
  'src/handlers/tools/save_draft.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

export const saveDraftHandler: ToolHandler<'save_draft'> = async (input, ctx) =>
  \`saved \${input.draft.id} for \${ctx.principal.id}\`;
`,
};

/** Generates and compiles the guarded project into `.test-out/<name>`; returns its entry point. */
export function buildGuarded(name: string): string {
  return generateAndCompile(guardedManifest, name, guardedHandlers);
}

/** The environment the guarded server runs with; `calls` is the handler-run log file. */
export function guardedEnv(calls: string): Record<string, string> {
  return {
    GUARDED_TOKENS: tokensEnv,
    GUARDED_STATE_KEY: stateKey,
    GUARDED_HANDLE_KEY: handleKey,
    GUARDED_CALLS: calls,
  };
}

/** Connects `client` to the guarded server `entry` over stdio, with the environment of guardedEnv(calls). */
export async function connectGuardedStdio(client: Client, entry: string, calls: string): Promise<void> {
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [entry, '--transport', 'stdio'],
      env: { PATH: process.env.PATH ?? '', ...guardedEnv(calls) },
    }),
  );
}
