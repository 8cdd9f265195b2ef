import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { envelope, repoRoot, rpc, type RunningServer } from './harness.js';

// The tasks fixture shared by the Redis and memory-store task tests: its handlers and the calls that drive a task.

export const manifest = path.join(repoRoot, 'test', 'fixtures', 'runtime', 'tasks.yaml');
export const extension = 'io.modelcontextprotocol/tasks';
export const subscriptionKey = 'io.modelcontextprotocol/subscriptionId';
export const withTasks: Record<string, unknown> = { elicitation: { form: {} }, extensions: { [extension]: {} } };

// build_report appends "<label> aborted" to TASKS_EVENTS when its signal aborts, so a test sees the handler stop.
export const handlers: Readonly<Record<string, string>> = {
  'src/handlers/tools/build_report.ts': `import { appendFileSync } from 'node:fs';
import type { ToolHandler } from '../../generated/index.gen.js';

export const buildReportHandler: ToolHandler<'build_report'> = async (input, ctx) => {
  for (let step = 0; step < input.steps; step++) {
    if (ctx.signal.aborted) {
      appendFileSync(process.env.TASKS_EVENTS ?? '', \`\${input.label} aborted\\n\`);
      throw ctx.signal.reason;
    }
    await ctx.progress(step, input.steps, \`\${input.label}: step \${step + 1} of \${input.steps}\`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return \`report \${input.label} in \${input.steps} steps\`;
};
`,
  'src/handlers/tools/export_archive.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

export const exportArchiveHandler: ToolHandler<'export_archive'> = async () => 'archive exported';
`,
  'src/handlers/tools/purge_records.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

export const purgeRecordsHandler: ToolHandler<'purge_records'> = async (input) => \`purged \${input.table}\`;
`,
};

export const call = (server: RunningServer, name: string, args: Record<string, unknown>, capabilities = withTasks) =>
  rpc(server.url, 'tools/call', { name, arguments: args, _meta: envelope(capabilities) });

export const task = (
  server: RunningServer,
  method: string,
  params: Record<string, unknown>,
  capabilities = withTasks,
) => rpc(server.url, method, { ...params, _meta: envelope(capabilities) });

/** Polls tasks/get on `server` until `done` holds (at most `limitMs`); returns the last result. */
export async function pollUntil(
  server: RunningServer,
  taskId: string,
  done: (result: any) => boolean,
  limitMs = 30_000,
): Promise<any> {
  const start = Date.now();
  for (;;) {
    const { body } = await task(server, 'tasks/get', { taskId });
    if (done(body.result) || Date.now() - start > limitMs) return body.result;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The text of `file` once it exists (the handler writes it when it sees its signal), within 10 s. */
export async function eventually(file: string): Promise<string> {
  for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  return readFileSync(file, 'utf8');
}

export const settled = (result: any): boolean => ['completed', 'failed', 'cancelled'].includes(result?.status);

/** Starts a build_report task on `server`; its id. */
export async function startReport(server: RunningServer, label: string, steps: number): Promise<string> {
  const { body } = await call(server, 'build_report', { label, steps });
  expect(body.result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 600_000, pollIntervalMs: 1000 });
  return body.result.taskId as string;
}
