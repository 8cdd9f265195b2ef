import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runIn } from '../support/golden.js';

// What init refuses before it writes or packs anything (the rest of init: test/integration/init.test.ts).
const work = path.join(repoRoot, '.test-out', 'init-options');

const refused: [flag: string, value: string, message: string][] = [
  ['--example', 'shop', '--example must be one of blank, demo, notes, calendar, files, library, got "shop"'],
  ['--transport', 'ws', '--transport must be one of stdio, http, both, got "ws"'],
  ['--legacy', 'stateless', '--legacy must be one of serve, reject, got "stateless"'],
  [
    '--name',
    'My Server',
    '--name must start with a lowercase letter and hold only lowercase letters, digits and dashes (at most 64), ' +
      'got "My Server"; try "my-server"',
  ],
];

describe('mcp-gen init', () => {
  it.each(refused)('rejects an unknown %s with a clear message', async (flag, value, message) => {
    expect(await runIn(work, ['init', 'x', flag, value, '--yes'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `mcp-gen: error: ${message}\n`,
    });
  });
});
