import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { inspectorCli, installInterop, node22, versions } from '../integration/protocol/interop-support.js';
import { buildEnvProject, inspectorLine } from '../support/env-project.js';

// Issue 33 item 7: the generated README's Inspector line works as printed, on a server that needs a config
// variable. The Inspector passes the server none of the caller's variables, so the line gives it `.env`.

let project = '';

beforeAll(() => {
  installInterop();
  ({ dir: project } = buildEnvProject('inspector-readme'));
  const example = readFileSync(path.join(project, '.env.example'), 'utf8');
  writeFileSync(path.join(project, '.env'), example.replace(/^FOO=$/m, 'FOO=x'));
}, 600_000);

/** The printed line's words after `npx <package>`, plus `extra`, run by the pinned Inspector on Node 22. */
function runLine(extra: readonly string[]) {
  const words = inspectorLine(project).split(' ');
  expect(words.slice(0, 2)).toEqual(['npx', `@modelcontextprotocol/inspector@${versions.inspector}`]);
  // `node` in the line is the Node 22 that runs the Inspector, first on PATH, as on a machine that has it.
  const result = spawnSync(node22, [inspectorCli, ...words.slice(2), ...extra], {
    cwd: project,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: `${path.dirname(node22)}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? '' },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe(`the README's Inspector line, run by MCP Inspector ${versions.inspector}`, () => {
  it('lists the tools of a server that requires FOO', () => {
    const listed = runLine([]);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name)).toEqual([
      'ping',
    ]);
  }, 120_000);

  it('takes --tool-arg after it: the server command comes first', () => {
    const called = runLine(['--method', 'tools/call', '--tool-name', 'ping', '--tool-arg', 'unexpected=1']);
    // The stub handler is never reached: the argument is refused by the tool's schema, which shows the call
    // arrived at the server, where a --tool-arg before the command would have taken `node` as a pair.
    expect(called.stdout).toContain('data must NOT have additional properties');
    expect(called.stdout).not.toContain('Invalid parameter format');
  }, 120_000);
});
