import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dotenvValue, shellWord } from '../../src/util/shell-word.js';
import { repoRoot, runIn } from '../support/golden.js';

// Issue 33 item 4: what a shell reads back from a generated file is the text, never a command.

describe('shellWord', () => {
  it('leaves plain words as they are and single-quotes the rest', () => {
    expect(shellWord('mcp.yaml')).toBe('mcp.yaml');
    expect(shellWord('../specs/api-v1.yaml')).toBe('../specs/api-v1.yaml');
    expect(shellWord('a b')).toBe("'a b'");
    expect(shellWord('$(touch x)`y`;z')).toBe("'$(touch x)`y`;z'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
    expect(shellWord('~/x')).toBe("'~/x'");
    expect(shellWord('')).toBe("''");
  });
});

describe('dotenvValue', () => {
  it('quotes what sh and node --env-file both read back, and refuses a quote or a control character', () => {
    expect(dotenvValue('20')).toBe('20');
    expect(dotenvValue('https://api.example.com/v1')).toBe('https://api.example.com/v1');
    expect(dotenvValue('https://x/$(id)`id`#frag')).toBe("'https://x/$(id)`id`#frag'");
    expect(dotenvValue('say "hi"')).toBe('\'say "hi"\'');
    expect(dotenvValue("it's")).toBe(null);
    expect(dotenvValue('two\nlines')).toBe(null);
    expect(dotenvValue('tab\there')).toBe(null);
  });
});

describe('a manifest whose text a shell would run', () => {
  const dir = path.join(repoRoot, '.test-out', 'shell-word');
  it('gives .env.example no unquoted default and the README an Inspector line with the URL as one word', async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'mcp.yaml'),
      'mcpGen: 1\nserver: { name: sh, version: 1.0.0 }\n' +
        "transports:\n  stdio: {}\n  http: { host: '127.0.0.1$(touch x)', port: 3000, path: /mcp }\n" +
        'auth: { type: bearer, tokensEnv: SH_TOKENS, scopes: { read: Read things } }\n' +
        'config:\n' +
        '  SH_GREETING: { description: A greeting, type: string, default: "it\'s `id` $(id)" }\n' +
        '  SH_TITLE: { description: A title, type: string, default: "$(id) and `id`" }\n' +
        'tools:\n  ping:\n    title: Ping\n    description: Answer with pong to show the server is alive.\n' +
        '    annotations: { readOnlyHint: true, openWorldHint: false }\n' +
        '    input: { type: object, additionalProperties: false }\n',
    );
    const generated = await runIn(dir, ['generate']);
    expect(generated.code, generated.stderr).toBe(0);
    const env = readFileSync(path.join(dir, '.env.example'), 'utf8');
    expect(env).toContain(
      '# A greeting (string, optional)\n' +
        '# Its default holds a single quote or a control character, which no .env line quotes for both sh and\n' +
        '# node --env-file, so it is left out here; the server uses it when SH_GREETING is empty.\n' +
        'SH_GREETING=\n',
    );
    expect(env).toContain("# A title (string, optional)\nSH_TITLE='$(id) and `id`'\n");
    const readme = readFileSync(path.join(dir, 'README.md'), 'utf8');
    expect(readme).toContain("--server-url 'http://127.0.0.1$(touch x):3000/mcp' --method tools/list");
  });
});
