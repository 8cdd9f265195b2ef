import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, runIn } from '../support/golden.js';

// README.md is the user's, but its facts of the manifest (transports, port, config variables, host snippets,
// commands) live in a marked part that every generate rewrites; every byte outside the part stays the user's.

const dir = path.join(repoRoot, '.test-out', 'readme-part');
const readmePath = path.join(dir, 'README.md');
const manifest = (extra: string) =>
  'mcpGen: 1\nserver: { name: rd, version: 1.0.0 }\n' +
  extra +
  'tools:\n  ping:\n    title: Ping\n    description: Answer with pong to show the server is alive.\n' +
  '    annotations: { readOnlyHint: true, openWorldHint: false }\n' +
  '    input: { type: object, additionalProperties: false }\n';
const http = (port: number, path = '/mcp') =>
  `transports:\n  stdio: {}\n  http: { host: 127.0.0.1, port: ${port}, path: ${JSON.stringify(path)} }\n`;
const config =
  'config:\n' +
  '  RD_DATABASE_URL: { description: "Where <b>the</b> data | lives", type: url, required: true, secret: true }\n' +
  '  RD_LIMIT: { description: Page size, type: integer, default: 20 }\n';
const readme = () => readFileSync(readmePath, 'utf8');
const generate = async (extra: string, flags: readonly string[] = []) => {
  writeFileSync(path.join(dir, 'mcp.yaml'), manifest(extra));
  return runIn(dir, ['generate', ...flags]);
};
const begin = /^<!-- mcp-gen:begin sha256=[0-9a-f]{16}: .* -->$/m;

/** The README with `mine` before the part and `after` below it. */
function wrap(text: string, mine: string, after: string): string {
  const at = text.indexOf('<!-- mcp-gen:begin');
  return `${text.slice(0, at)}${mine}${text.slice(at)}${after}`;
}

/** The part between the marker lines, markers excluded. */
function partOf(text: string): string {
  const start = text.indexOf('\n', text.indexOf('<!-- mcp-gen:begin')) + 1;
  return text.slice(start, text.indexOf('<!-- mcp-gen:end -->'));
}

beforeEach(() => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
});

describe("README.md's generated part", () => {
  it('follows the port, HTTP and config on every generate; the user text around it is kept byte for byte', async () => {
    expect((await generate('')).code).toBe(0);
    const first = readme();
    expect(first.startsWith('# rd\n\n<!-- mcp-gen:begin sha256=')).toBe(true);
    expect(first).toMatch(begin);
    expect(first.endsWith('<!-- mcp-gen:end -->\n')).toBe(true);
    expect(first).not.toContain('start:http');
    const mine = 'My own words about *rd*.\r\n\n<!-- a comment of mine -->\n\n';
    const after = '\n## Deploying\n\nOur own notes, no final newline';
    writeFileSync(readmePath, wrap(first, mine, after));

    const added = await generate(http(3401) + config);
    expect(added.stderr).toBe('');
    expect(added.stdout).toContain('update    user-edit README.md\n');
    const second = readme();
    expect(second.startsWith(`# rd\n\n${mine}<!-- mcp-gen:begin sha256=`)).toBe(true);
    expect(second.endsWith(`<!-- mcp-gen:end -->\n${after}`)).toBe(true);
    const part = partOf(second);
    expect(part).toContain('npm run start:http        # Streamable HTTP on http://127.0.0.1:3401/mcp\n');
    expect(part).toContain('"url": "http://127.0.0.1:3401/mcp"');
    expect(part).toContain(
      'npm start                 # stdio, in a terminal (a host runs node dist/server.mjs: see below)',
    );
    expect(part).toContain('npm run build ');
    expect(part).toContain('npm run dev ');
    expect(part).toContain('npm test ');
    // Config variables: named, described as text (escaped), the secret with a placeholder and never a value.
    expect(part).toContain('`RD_DATABASE_URL`');
    expect(part).toContain('Where &lt;b>the&lt;/b> data \\| lives');
    expect(part).toContain('"RD_DATABASE_URL": "<');
    expect(part).toContain('`RD_LIMIT`');

    const moved = await generate(http(3402, '/rpc') + config);
    expect(moved.stdout).toContain('update    user-edit README.md\n');
    const third = readme();
    expect(partOf(third)).toContain('http://127.0.0.1:3402/rpc');
    expect(third).not.toContain('3401');
    expect(third.startsWith(`# rd\n\n${mine}`)).toBe(true);
    expect(third.endsWith(`<!-- mcp-gen:end -->\n${after}`)).toBe(true);

    // In step: neither written nor reported, and --check agrees.
    expect((await generate(http(3402, '/rpc') + config)).stdout).not.toContain('README.md');
    expect((await generate(http(3402, '/rpc') + config, ['--check'])).code).toBe(0);
    expect(readme()).toBe(third);
    // Stale after a manifest change: --check says so and changes nothing.
    const stale = await generate(http(3403) + config, ['--check']);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('update    user-edit README.md\n');
    expect(readme()).toBe(third);
  });

  it('keeps an edit made inside the part, with a warning, until the part is emptied', async () => {
    await generate(http(3401));
    const edited = readme().replace('## Run it\n', '## Run it, as we do\n');
    writeFileSync(readmePath, edited);
    const kept = await generate(http(3402));
    expect(kept.code).toBe(0);
    expect(kept.stderr).toContain(
      'README.md:3:1: warning [readme-part-edited] README.md: the part between the mcp-gen lines was edited, ' +
        'so it is kept and no longer follows the manifest\n',
    );
    expect(readme()).toBe(edited);
    // The two lines alone (what a user adds by hand to an older README, too) are filled in.
    const beginEnds = edited.indexOf('\n', edited.indexOf('<!-- mcp-gen:begin')) + 1;
    const emptied = `${edited.slice(0, beginEnds)}<!-- mcp-gen:end -->\nmine\n`;
    writeFileSync(readmePath, emptied);
    const filled = await generate(http(3402));
    expect(filled.stderr).toBe('');
    expect(partOf(readme())).toContain('http://127.0.0.1:3402/mcp');
    expect(readme().endsWith('<!-- mcp-gen:end -->\nmine\n')).toBe(true);
  });

  it('leaves a README without the markers, or with broken ones, as it is', async () => {
    await generate('');
    writeFileSync(readmePath, 'All mine.\n');
    const none = await generate(http(3401));
    expect(none.stderr).toBe('');
    expect(readme()).toBe('All mine.\n');
    const broken = 'Mine.\n<!-- mcp-gen:end -->\n<!-- mcp-gen:begin -->\n';
    writeFileSync(readmePath, broken);
    const refused = await generate(http(3402));
    expect(refused.stderr).toContain(
      'README.md:1:1: warning [readme-part-broken] README.md is kept as it is: ' +
        'its mcp-gen:end line comes before its mcp-gen:begin line\n',
    );
    expect(readme()).toBe(broken);
  });

  it('keeps CRLF line endings of a README checked out on Windows', async () => {
    await generate(http(3401));
    const crlf = readme().replace(/\n/g, '\r\n');
    writeFileSync(readmePath, crlf);
    // An unchanged part in CRLF is still the part mcp-gen wrote: nothing to do.
    expect((await generate(http(3401))).stdout).not.toContain('README.md');
    expect((await generate(http(3402))).stderr).toBe('');
    const next = readme();
    expect(next).toContain('http://127.0.0.1:3402/mcp\r\n');
    expect(next.replace(/\r\n/g, '')).not.toContain('\n');
  });
});
