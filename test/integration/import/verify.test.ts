import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateAndCompile, startHttpServer } from '../runtime/harness.js';
import { exampleDir } from '../../support/examples.js';
import { repoRoot, runIn } from '../../support/golden.js';
import { compileProject } from '../../support/servers.js';

// `mcp-gen verify`: a generated server matches its manifest exactly (and the digest generate
// recorded); a server built from a changed manifest fails with exactly that difference.

const out = path.join(repoRoot, '.test-out', 'verify');
const demo = path.join(repoRoot, 'examples', 'demo');
const manifest = path.join(demo, 'mcp.yaml');
const description = 'Add two integers between -1000000000 and 1000000000 and return their exact sum as `sum`.';
let entry = '';

beforeAll(() => {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  entry = compileProject(demo, path.join(out, 'demo'));
}, 240_000);

/** A server generated from the demo manifest after `edit`, with stub handlers (verify only lists). */
function variant(name: string, edit: (text: string) => string): string {
  const file = path.join(out, `${name}.yaml`);
  writeFileSync(file, edit(readFileSync(manifest, 'utf8')));
  return generateAndCompile(file, `verify-${name}`, {});
}

describe('verify', () => {
  it('passes on the generated server, with the digest generate recorded', async () => {
    const recorded = (
      JSON.parse(readFileSync(path.join(demo, 'src', 'generated', 'registry.gen.json'), 'utf8')) as {
        toolsetDigest: string;
      }
    ).toolsetDigest;
    const result = await runIn(repoRoot, ['verify', '--manifest', manifest, '--', process.execPath, entry]);
    expect(result).toEqual({
      code: 0,
      stdout: `no drift: the server matches ${manifest}\n  toolset digest: manifest ${recorded}, server ${recorded}\n`,
      stderr: '',
    });
  }, 120_000);

  it('fails on a server that registers an extra tool', async () => {
    const extra = variant('extra-tool', (text) =>
      text.replace(
        'tools:\n',
        'tools:\n  subtract:\n    description: Subtract b from a and return the ' +
          'difference as `difference`.\n    annotations: { readOnlyHint: true, ' +
          'openWorldHint: false }\n    input: { type: object, additionalProperties: ' +
          'false, properties: { a: { type: integer }, b: { type: integer } } }\n',
      ),
    );
    const result = await runIn(repoRoot, ['verify', '--manifest', manifest, '--', process.execPath, extra]);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n').slice(0, 2)).toEqual([
      `DRIFT: 1 difference between the server and ${manifest}`,
      '  tool added: "subtract" is on the server but not in the manifest',
    ]);
    expect(result.stdout).toMatch(/^ {2}toolset digest: manifest sha256:[0-9a-f]{64}, server sha256:[0-9a-f]{64}\n$/m);
  }, 240_000);

  it('fails on a server whose tool description changed, naming the old and the new text', async () => {
    const changed = variant('changed-description', (text) => text.replace(description, 'Add two numbers.'));
    const result = await runIn(repoRoot, ['verify', '--manifest', manifest, '--', process.execPath, changed]);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n').slice(0, 2)).toEqual([
      `DRIFT: 1 difference between the server and ${manifest}`,
      `  tool changed: "add" /description: manifest ${JSON.stringify(description)}, server "Add two numbers."`,
    ]);
  }, 240_000);

  it('says why it cannot connect', async () => {
    const result = await runIn(repoRoot, ['verify', '--manifest', manifest, 'http://127.0.0.1:9/mcp']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^mcp-gen: error: cannot connect to http:\/\/127\.0\.0\.1:9\/mcp: /);
  }, 60_000);
});

describe('verify and import server over Streamable HTTP, with a bearer token', () => {
  it('examples/notes: no drift, and the imported draft has its tools', async () => {
    const notes = path.join(repoRoot, 'examples', 'notes');
    const notesEntry = compileProject(exampleDir('notes'), path.join(out, 'notes'));
    const server = await startHttpServer(notesEntry, {
      NOTES_TOKENS: 'secret-token-0123456789=alice:notes.read,notes.write',
      NOTES_HANDLE_KEY: 'notes-handle-key-0123456789abcdef-0123',
      NOTES_STATE_KEY: 'notes-state-key-0123456789abcdef-01234',
    });
    try {
      const header = 'Authorization: Bearer secret-token-0123456789';
      const manifestPath = path.join(notes, 'mcp.yaml');
      const verified = await runIn(repoRoot, [
        'verify',
        '--manifest',
        manifestPath,
        server.url.href,
        '--header',
        header,
      ]);
      expect({ code: verified.code, first: verified.stdout.split('\n')[0] }).toEqual({
        code: 0,
        first: `no drift: the server matches ${manifestPath}`,
      });
      const refused = await runIn(repoRoot, ['verify', '--manifest', manifestPath, server.url.href]);
      expect(refused.code).toBe(1);
      const imported = await runIn(out, [
        'import',
        'server',
        server.url.href,
        '--header',
        header,
        '--out',
        'notes-http.yaml',
      ]);
      expect(imported.code).toBe(0);
      expect(imported.stdout.split('\n')[0]).toBe(
        'wrote notes-http.yaml: 3 tools, 2 resources, 1 prompt, 11 TODOs to review',
      );
      const draft = readFileSync(path.join(out, 'notes-http.yaml'), 'utf8');
      expect(draft).toContain('\ntransports:\n  http: {}\n');
      expect(draft).toContain('# TODO auth: the server was read with an Authorization header, so callers sign in;');
      expect(draft).not.toContain('secret-token');
    } finally {
      await server.stop();
    }
  }, 240_000);
});
