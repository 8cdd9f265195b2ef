import { describe, expect, it } from 'vitest';
import { transportPlan } from '../../src/emit/report/view-plans.js';
import { parseManifest } from '../../src/load/index.js';
import { normalizeManifest } from '../../src/normalize/index.js';
import { validateManifest } from '../../src/validate/index.js';

// DESIGN.md's transport section states each HTTP server's probes: which paths it answers (the MCP endpoint keeps a
// path it already has) and whether /readyz asks the state store.

const tool = (extra: string): string => `tools:
  send:
    description: Sends a note.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }
${extra}    input: { type: object, properties: {}, additionalProperties: false }
`;

/** The `row` row (`probes` by default) of the transport table of `manifest`, or undefined without one. */
function probesRow(transports: string, extra = '', row = 'probes', store = ''): string | undefined {
  const text = `mcpGen: 1\nserver: { name: probed, version: 1.0.0 }\n${store}transports:\n${transports}${tool(extra)}`;
  const loaded = parseManifest(text, 'a.yaml');
  if (!loaded.ok) throw new Error('did not load');
  const verdict = validateManifest(loaded.manifest);
  expect(verdict.diagnostics).toEqual([]);
  if (verdict.manifest === null) throw new Error('not valid');
  return transportPlan(normalizeManifest(verdict.manifest))
    .table.split('\n')
    .find((line) => line.startsWith(`| ${row} |`));
}

const tail = 'no auth or Host check, nothing configured shown; `MCP_GEN_HEALTH=off` removes them |';

describe('the probes row of DESIGN.md', () => {
  it('names both probes; /readyz asks the store only when a tool needs it', () => {
    expect(probesRow('  http: {}\n')).toBe(
      '| probes | `GET /healthz` live (200 while serving), `GET /readyz` ready (200 once started, the `ready` ' +
        `checks of src/setup.ts pass, not draining; else 503); ${tail}`,
    );
    expect(probesRow('  http: {}\n', '    idempotency: key\n')).toBe(
      '| probes | `GET /healthz` live (200 while serving), `GET /readyz` ready (200 once started, the state ' +
        `store answers, the \`ready\` checks of src/setup.ts pass, not draining; else 503); ${tail}`,
    );
  });

  it('has a tasks row naming each task tool and what its store means, only with task tools', () => {
    const task = '    task: optional\n    taskTtl: 10m\n';
    expect(probesRow('  http: {}\n', task, 'tasks')).toBe(
      '| tasks | `send` (optional, kept 10m): written to the store before the task id is sent, for clients that ' +
        'declare the extension; tasks live in this process and are lost on restart; its listen streams hear each ' +
        'change (notifications/tasks) |',
    );
    const redis = probesRow('  http: {}\n', task, 'tasks', 'store: { type: redis, urlEnv: R }\n');
    expect(redis).toContain(
      'any instance answers tasks/get, tasks/update and tasks/cancel; a task whose instance died is failed after 3 s',
    );
    expect(redis).toContain(
      '3 s without its heartbeat; listen streams on every instance hear each change (notifications/tasks) |',
    );
    expect(probesRow('  http: {}\n', '', 'tasks')).toBeUndefined();
  });

  it('leaves out the probe whose path the MCP endpoint has, and has no row without HTTP', () => {
    expect(probesRow('  http: { path: /healthz }\n')).toBe(
      '| probes | `GET /readyz` ready (200 once started, the `ready` checks of src/setup.ts pass, not draining; ' +
        `else 503); ${tail}`,
    );
    expect(probesRow('  stdio: {}\n')).toBeUndefined();
  });
});
