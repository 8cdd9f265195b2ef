import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { listTree, repoRoot } from '../support/golden.js';

const work = path.join(repoRoot, '.test-out', 'init-prompt');
const ctrlC = '\u0003';
const ctrlD = '\u0004';

beforeEach(() => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
});

/** Runs `mcp-gen init` on a pseudo-terminal (python3's pty module), typing `keys` after each awaited text. */
function initOnTerminal(steps: [string, string][], args: string[] = []) {
  const driver = path.join(repoRoot, 'test', 'support', 'pty-drive.py');
  const result = spawnSync(
    'python3',
    [
      driver,
      work,
      JSON.stringify(steps),
      process.execPath,
      path.join(repoRoot, 'bin', 'mcp-gen.js'),
      'init',
      'desk',
      ...args,
    ],
    { encoding: 'utf8', timeout: 120_000 },
  );
  expect(result.status, result.stderr).toBe(0);
  const { code, output } = JSON.parse(result.stdout) as { code: number; output: string };
  // What the terminal shows, without readline's cursor movements.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the cursor movements removed here
  return { code, text: output.replace(/\u001b\[\d*[A-Za-z]/g, '').replace(/\r/g, '') };
}

const questions = [
  'server name (desk): ',
  'start from (blank, demo, notes, calendar, files, library) [blank]: ',
  'transport (stdio, http, both) [stdio]: ',
  '2025-11-25 hosts (serve: also answer desktop and IDE assistants ' +
    'on the v1 SDK; reject: 2026-07-28 clients only) [serve]: ',
];
const answers = ['\r', 'demo\r', 'stdio\r', 'serve\r'];

describe('mcp-gen init on a terminal', () => {
  for (const [key, label] of [
    [ctrlC, 'Ctrl-C'],
    [ctrlD, 'Ctrl-D'],
  ] as const) {
    for (let at = 0; at < questions.length; at += 1) {
      it(`${label} at question ${at + 1} exits 130 with one line and writes nothing`, () => {
        const steps: [string, string][] = questions
          .slice(0, at + 1)
          .map((q, i) => [q.slice(0, 12), i === at ? key : (answers[i] ?? '')]);
        const { code, text } = initOnTerminal(steps);
        expect(code).toBe(130);
        expect(text.endsWith(`${questions[at]}\nmcp-gen: init cancelled; nothing was written\n`), text).toBe(true);
        expect(text).not.toMatch(/internal error| {4}at /);
        expect(listTree(work)).toEqual([]);
      });
    }
  }

  it('checks each answer when given and asks again with the reason, keeping earlier answers', () => {
    const { code, text } = initOnTerminal([
      ['server name', 'Team Desk\r'],
      ['server name', 'team-desk\r'],
      ['start from', 'shop\r'],
      ['start from', 'notes\r'],
      ['transport', 'ws\r'],
      ['transport', 'both\r'],
      ['2025-11-25 h', 'maybe\r'],
      ['2025-11-25 h', 'reject\r'],
    ]);
    expect(code, text).toBe(0);
    expect(text).toContain(
      'server name (desk): Team Desk\n  the name must start with a lowercase ' +
        'letter and hold only lowercase letters, digits and dashes (at most ' +
        '64), got "Team Desk"; try "team-desk"\nserver name (desk): team-desk\n',
    );
    expect(text).toContain(
      '[blank]: shop\n  the starting point must be one of blank, demo, notes, calendar, files, library, ' +
        'got "shop"\nstart from',
    );
    expect(text).toContain('[stdio]: ws\n  the transport must be one of stdio, http, both, got "ws"\ntransport');
    expect(text).toContain('[serve]: maybe\n  the answer must be one of serve, reject, got "maybe"\n2025-11-25 hosts');
    expect(text).not.toContain('--');
    const manifest = readFileSync(path.join(work, 'desk', 'mcp.yaml'), 'utf8');
    expect(manifest).toContain('  name: team-desk ');
    expect(manifest).toContain('transports:\n  stdio: {}\n  http: ');
    expect(manifest).toContain('legacy: reject');
  });

  it('asks only what the flags leave open; --yes asks nothing', () => {
    const asked = initOnTerminal([['transport', ctrlC]], ['--name', 'desk', '--example', 'demo', '--legacy', 'serve']);
    expect(asked.code).toBe(130);
    expect(asked.text).toBe('transport (stdio, http, both) [stdio]: \nmcp-gen: init cancelled; nothing was written\n');
    const quiet = initOnTerminal([], ['--yes']);
    expect(quiet.code, quiet.text).toBe(0);
    expect(quiet.text).toMatch(/^created \d+ files from "blank"\n/);
  });
});
