import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths.js';
import { type RunningServer, startHttpServer } from './runtime/harness.js';

// `mcp-gen call`, `read` and `prompt` as a user runs them in a project made by `init` and built as
// `npm run build` builds it: over stdio (dist/server.mjs next to the manifest) and over HTTP (--url).

const work = path.join(repoRoot, '.test-out', 'call');
const cli = path.join(repoRoot, 'bin', 'mcp-gen.js');
const env = { PATH: process.env.PATH ?? '' };

function run(args: readonly string[], cwd: string) {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8', timeout: 60_000, env });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `mcp-gen init <name> --example <example> --transport both`, then the build of its `npm run build`. */
function initAndBuild(name: string, example: string): string {
  expect(run(['init', name, '--example', example, '--transport', 'both', '--yes'], work).code).toBe(0);
  const project = path.join(work, name);
  const tsc = path.join(repoRoot, 'node_modules', '.bin', 'tsc');
  for (const [command, args] of [
    [tsc, ['-p', 'tsconfig.json']],
    [process.execPath, ['src/generated/bundle.gen.mjs']],
  ] as const) {
    const step = spawnSync(command, args, { cwd: project, encoding: 'utf8', timeout: 180_000, env });
    expect(step.status, step.stdout + step.stderr).toBe(0);
  }
  return project;
}

let demo = '';
let notes = '';
let demoHttp: RunningServer | undefined;
let notesHttp: RunningServer | undefined;

beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  demo = initAndBuild('demo', 'demo');
  notes = initAndBuild('notes', 'notes');
  demoHttp = await startHttpServer(path.join(demo, 'dist', 'server.mjs'), {});
  notesHttp = await startHttpServer(path.join(notes, 'dist', 'server.mjs'), {
    NOTES_TOKENS: 'call-test-token-0123456789=alice:notes.read,notes.write',
  });
}, 600_000);

afterAll(async () => {
  await demoHttp?.stop();
  await notesHttp?.stop();
});

describe('mcp-gen call', () => {
  it('calls add over stdio with --arg values read as integers', () => {
    const result = run(['call', 'add', '--arg', 'a=2', '--arg', 'b=3'], demo);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      content: [{ type: 'text', text: '{"sum":5}' }],
      structuredContent: { sum: 5 },
    });
  });

  it('calls add over HTTP with --json and an --arg on top', () => {
    const result = run(
      ['call', 'add', '--url', String(demoHttp?.url), '--json', '{"a":40,"b":1}', '--arg', 'b=2'],
      work,
    );
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout).structuredContent).toEqual({ sum: 42 });
    expect(result.code).toBe(0);
  });

  it("exits 1 on the tool's error result, printed as JSON", () => {
    const result = run(['call', 'add', '--arg', 'a=2000000000', '--arg', 'b=3'], demo);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      content: [
        { type: 'text', text: 'Input validation error: Invalid arguments for tool add: data/a must be <= 1000000000' },
      ],
      isError: true,
    });
  });

  it('exits 1 with a message on a value the schema refuses and on an unknown tool', () => {
    expect(run(['call', 'add', '--arg', 'a=two', '--arg', 'b=3'], demo)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'mcp-gen: error: --arg a: expected integer, got "two"\n',
    });
    expect(run(['call', 'ad'], demo)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'mcp-gen: error: the server has no tool "ad"; did you mean "add"? (tools: add)\n',
    });
  });

  it('approves a destructive tool with --yes and declines it without', () => {
    const url = String(notesHttp?.url);
    const bearer = ['--header', 'Authorization: Bearer call-test-token-0123456789'];
    const draftOf = () => {
      const started = run(['call', 'start_note_draft', '--url', url, ...bearer, '--arg', 'title=Launch'], work);
      expect(started.code, started.stderr).toBe(0);
      return JSON.parse(started.stdout).structuredContent.draft as string;
    };
    const declined = run(['call', 'publish_note_draft', '--url', url, ...bearer, '--arg', `draft=${draftOf()}`], work);
    expect(declined.code).toBe(1);
    const lines = declined.stderr.split('\n');
    expect(lines[0]).toMatch(/^mcp-gen: tool "publish_note_draft" with arguments \{"draft":"[^"]+"\} asks:$/);
    expect(lines[1]).toMatch(/^ {2}Approve running "Publish a note draft" \(publish_note_draft\) with arguments /);
    expect(lines.slice(2)).toEqual([
      'mcp-gen: declined: standard input is not a terminal; pass --yes to accept ' +
        '(for scripted tests against test backends only)',
      '',
    ]);
    expect(JSON.parse(declined.stdout).isError).toBe(true);

    const accepted = run(
      ['call', 'publish_note_draft', '--url', url, ...bearer, '--arg', `draft=${draftOf()}`, '--yes'],
      work,
    );
    expect(accepted.code, accepted.stdout).toBe(0);
    expect(accepted.stderr).toMatch(/\nmcp-gen: accepted \(--yes\)\n$/);
    expect(JSON.parse(accepted.stdout).content[0].text).toMatch(/^Published "Launch" as notes:\/\/notes\//);
  });
});

describe('mcp-gen call on a terminal', () => {
  it('shows the tool, its arguments and the question, and runs the tool on "yes"', () => {
    const url = String(notesHttp?.url);
    const bearer = ['--header', 'Authorization: Bearer call-test-token-0123456789'];
    const started = run(['call', 'start_note_draft', '--url', url, ...bearer, '--arg', 'title=Launch'], work);
    const draft = JSON.parse(started.stdout).structuredContent.draft as string;
    const driver = path.join(repoRoot, 'test', 'support', 'pty-drive.py');
    const args = ['call', 'publish_note_draft', '--url', url, ...bearer, '--arg', `draft=${draft}`];
    const result = spawnSync(
      'python3',
      [driver, work, JSON.stringify([['(yes/no): ', 'yes\r']]), process.execPath, cli, ...args],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(result.status, result.stderr).toBe(0);
    const { code, output } = JSON.parse(result.stdout) as { code: number; output: string };
    const text = output.replace(/\r/g, '');
    expect(code, text).toBe(0);
    expect(text).toContain(`mcp-gen: tool "publish_note_draft" with arguments {"draft":"${draft}"} asks:\n`);
    expect(text).toMatch(/\n {2}Approve running "Publish a note draft" \(publish_note_draft\) with arguments /);
    expect(text).toMatch(/"text": "Published \\"Launch\\" as notes:\/\/notes\//);
  });
});

describe('mcp-gen read and prompt', () => {
  it('reads a resource over stdio', () => {
    const result = run(['read', 'config://app'], demo);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).contents).toEqual([
      {
        uri: 'config://app',
        mimeType: 'text/plain',
        text: 'name=demo-server\nversion=0.2.0\nprotocol=2026-07-28\ntransport=stdio\nauth=none\n',
      },
    ]);
  });

  it('gets a prompt with its arguments', () => {
    const result = run(['prompt', 'code_review', '--arg', 'language=python', '--arg', 'code=print(1)'], demo);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).messages[0].content.text).toBe(
      'Please review this python code. Point out bugs, unclear names and missing tests, ' +
        'most important first.\n\nprint(1)',
    );
  });
});
