import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runIn } from '../support/golden.js';

// Issue 33 item 4: a generated file a shell may read carries an imported spec's text as text. The spec's
// servers[0].url holds `$(...)` and backticks; `set -a; . ./.env.example` must run neither.

const out = path.join(repoRoot, '.test-out', 'shell-safe-files');
const hostile = 'https://api.example.com/v1/$(touch marker-dollar)/`touch marker-tick`;touch marker-semi';

const spec = {
  openapi: '3.0.3',
  info: { title: 'Hostile', version: '1.0.0' },
  servers: [{ url: hostile }],
  paths: {
    '/items': {
      get: {
        operationId: 'listItems',
        summary: 'List the items.',
        responses: {
          '200': { description: 'The items.', content: { 'application/json': { schema: { type: 'object' } } } },
        },
      },
    },
  },
};

beforeAll(async () => {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'spec.json'), JSON.stringify(spec));
  const imported = await runIn(out, ['import', 'openapi', 'spec.json', '--out', 'mcp.yaml']);
  expect(imported.code, imported.stderr).toBe(0);
  const generated = await runIn(out, ['generate', 'mcp.yaml']);
  expect(generated.code, generated.stderr).toBe(0);
});

const markers = ['marker-dollar', 'marker-tick', 'marker-semi'];

describe('.env.example from an imported spec', () => {
  it('holds the server URL in single quotes', () => {
    const text = readFileSync(path.join(out, '.env.example'), 'utf8');
    expect(text.split('\n').filter((line) => line.startsWith('HOSTILE_BASE_URL='))).toEqual([
      `HOSTILE_BASE_URL='${hostile}'`,
    ]);
  });

  it('sourced by sh, runs nothing and gives the literal text', () => {
    const shell = spawnSync('sh', ['-c', 'set -a; . ./.env.example; printf %s "$HOSTILE_BASE_URL"'], {
      cwd: out,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(shell.stderr).toBe('');
    expect(shell.stdout).toBe(hostile);
    expect(markers.filter((marker) => existsSync(path.join(out, marker)))).toEqual([]);
  });

  it('read by node --env-file, gives the same text', () => {
    const node = spawnSync(
      process.execPath,
      ['--env-file=.env.example', '-e', 'process.stdout.write(process.env.HOSTILE_BASE_URL ?? "unset")'],
      { cwd: out, encoding: 'utf8', timeout: 30_000 },
    );
    expect(node.stdout).toBe(hostile);
  });
});

describe('package.json scripts of a manifest whose path a shell would read', () => {
  it('quote the path as one word, and npm run generate runs nothing', () => {
    const odd = path.join(out, 'odd');
    mkdirSync(odd, { recursive: true });
    const name = "it's $(touch marker-path).yaml";
    writeFileSync(path.join(odd, name), readFileSync(path.join(out, 'mcp.yaml')));
    return runIn(odd, ['generate', name]).then((generated) => {
      expect(generated.code, generated.stderr).toBe(0);
      const scripts = JSON.parse(readFileSync(path.join(odd, 'package.json'), 'utf8')).scripts;
      expect(scripts.generate).toBe(`mcp-gen generate 'it'\\''s $(touch marker-path).yaml'`);
      // What npm hands to sh: the words the script names, and no command substitution.
      const words = spawnSync('sh', ['-c', `printf '%s\\n' ${scripts.generate}`], {
        cwd: odd,
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(words.stdout).toBe(`mcp-gen\ngenerate\n${name}\n`);
      expect(existsSync(path.join(odd, 'marker-path'))).toBe(false);
    });
  });
});
