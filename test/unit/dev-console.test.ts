import { describe, expect, it } from 'vitest';
import { ConsoleCalls, type Request } from '../../src/live/console/calls.js';
import { clientOf, curlOf, shellWord } from '../../src/live/console/copy-as.js';
import { consolePolicy, consoleShell } from '../../src/live/console/page.js';
import type { Answer, Question } from '../../src/live/session.js';

// The console's parts that need no process: its request steps (a question, the page's answer, the result), the curl
// command and client code it offers, and its page shell.

const target = () => ({ kind: 'url' as const, url: 'http://127.0.0.1:1/mcp', headers: {} });
const question: Question = {
  message: 'Publish the draft?',
  requestedSchema: { type: 'object', properties: { approve: { type: 'boolean' } } },
};

/** A request that asks once and returns what it was told, with two log lines written while it ran. */
function asking(lines: string[]): Request {
  return {
    copies: { curl: 'curl …', client: 'client …' },
    run: async (_target, ask) => {
      lines.push('before the question');
      const answer: Answer = await ask(question);
      lines.push('after the answer');
      return { result: { answer }, failed: answer.action === 'decline' };
    },
  };
}

function tapOf(lines: string[]) {
  return { mark: () => lines.length, since: (mark: number) => lines.slice(mark) };
}

describe('console requests', () => {
  it('stops at the question, resumes with the answer and returns the result with its log lines', async () => {
    const lines = ['earlier'];
    const calls = new ConsoleCalls(target, tapOf(lines));
    const first = await calls.start(asking(lines));
    expect(first).toEqual({ kind: 'question', call: expect.any(String), question });
    if (first.kind !== 'question') return;
    const last = await calls.answer(first.call, { action: 'accept', content: { approve: true } });
    expect(last).toEqual({
      kind: 'result',
      result: { answer: { action: 'accept', content: { approve: true } } },
      failed: false,
      copies: { curl: 'curl …', client: 'client …' },
      log: ['before the question', 'after the answer'],
      elapsedMs: expect.any(Number),
    });
    // The request is over: a second answer finds nothing to answer.
    expect(await calls.answer(first.call, { action: 'decline' })).toEqual({
      kind: 'error',
      message: 'no question of that request waits for an answer',
      code: null,
    });
  });

  it("reports a server's refusal with its JSON-RPC code", async () => {
    const calls = new ConsoleCalls(target, tapOf([]));
    const refused: Request = {
      copies: { curl: '', client: '' },
      run: async () => {
        throw new Error('the server answered -32602: Invalid arguments for tool "add"');
      },
    };
    expect(await calls.start(refused)).toEqual({
      kind: 'error',
      message: 'the server answered -32602: Invalid arguments for tool "add"',
      code: -32602,
    });
  });
});

describe('copy as client code', () => {
  it('writes every value as JSON and reads the token from the environment', () => {
    const args = { text: "it's `$" + '{x}` </script>' };
    expect(clientOf('http://127.0.0.1:3000/mcp', 'tools/call', { name: 'shout', arguments: args }, true)).toBe(
      [
        "import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';",
        '',
        'const client = new Client(',
        "  { name: 'my-client', version: '1.0.0' },",
        '  { versionNegotiation: { mode: { pin: "2026-07-28" } } },',
        ');',
        'await client.connect(new StreamableHTTPClientTransport(new URL("http://127.0.0.1:3000/mcp"), ' +
          "{ requestInit: { headers: { authorization: 'Bearer ' + process.env.MCP_TOKEN } } }));",
        `const result = await client.callTool({"name":"shout","arguments":{"text":"it's \`\${x}\` </script>"}});`,
        'console.log(JSON.stringify(result, null, 2));',
        'await client.close();',
        '',
      ].join('\n'),
    );
    expect(clientOf('http://h/mcp', 'resources/read', { uri: 'notes://1' }, false)).toContain(
      'new URL("http://h/mcp")));\nconst result = await client.readResource({"uri":"notes://1"});',
    );
    expect(clientOf('http://h/mcp', 'prompts/get', { name: 'p', arguments: { a: '1' } }, false)).toContain(
      'client.getPrompt({"name":"p","arguments":{"a":"1"}})',
    );
  });
});

describe('copy as curl', () => {
  it('quotes every word for the shell and never writes the token', () => {
    expect(shellWord(`it's "x" $HOME`)).toBe(`'it'\\''s "x" $HOME'`);
    expect(curlOf('http://127.0.0.1:3000/mcp', 'tools/call', { name: 'add', arguments: { a: 2 } }, true)).toBe(
      [
        "curl -sS 'http://127.0.0.1:3000/mcp'",
        "-H 'content-type: application/json'",
        "-H 'accept: application/json, text/event-stream'",
        "-H 'mcp-protocol-version: 2026-07-28'",
        "-H 'mcp-method: tools/call'",
        "-H 'mcp-name: add'",
        '-H "authorization: Bearer $MCP_TOKEN"',
        `--data-raw '${JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'add',
            arguments: { a: 2 },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        })}'`,
      ].join(' \\\n  '),
    );
  });
});

describe('the console page', () => {
  it('loads only its own script and style sheet, and escapes the token', () => {
    const shell = consoleShell('a"b<c');
    expect(shell).toContain('<meta name="mcp-gen-console-token" content="a&quot;b&lt;c">');
    expect(shell.match(/<script[^>]*>/g)).toEqual(['<script type="module" src="/console.js">']);
    expect(shell.match(/<link rel="stylesheet"[^>]*>/g)).toEqual([
      '<link rel="stylesheet" href="/console.css">',
      '<link rel="stylesheet" href="/console-items.css">',
    ]);
    expect(consolePolicy).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
  });
});
