import { describe, expect, it } from 'vitest';
import { registry as demo } from '../../examples/demo/src/generated/registry.gen.js';
import { StartupError } from '../../templates/runtime/handler.gen.js';
import { compileSchemas } from '../../templates/runtime/register.gen.js';
import type { RegistrySpec } from '../../templates/runtime/spec.gen.js';
import { calledTool } from '../../templates/runtime/http.gen.js';
import { readOptions, startServer, type ServerDefinition } from '../../templates/runtime/start.gen.js';

// The server's command line, and the refusals that happen before anything listens.
describe('readOptions', () => {
  it('reads --name value and --name=value', () => {
    expect(readOptions([])).toEqual({});
    expect(readOptions(['--transport', 'http', '--host=127.0.0.1', '--port', '0'])).toEqual({
      transport: 'http',
      host: '127.0.0.1',
      port: '0',
    });
    expect(readOptions(['--host=::1'])).toEqual({ host: '::1' });
  });

  it('refuses unknown, repeated and empty options with a StartupError', () => {
    const refusals: readonly [readonly string[], string][] = [
      [['--verbose'], 'unknown argument "--verbose"; expected --transport, --host or --port (see --help)'],
      [['stdio'], 'unknown argument "stdio"; expected --transport, --host or --port (see --help)'],
      [['-p', '1'], 'unknown argument "-p"; expected --transport, --host or --port (see --help)'],
      [['--port', '1', '--port', '2'], '--port is given twice'],
      [['--host'], '--host needs a value'],
      [['--host', '--port', '1'], '--host needs a value'],
      [['--host='], '--host needs a value'],
    ];
    for (const [argv, message] of refusals) {
      expect(() => readOptions(argv)).toThrow(StartupError);
      expect(() => readOptions(argv)).toThrow(message);
    }
  });
});

// The HTTP module exactly when the registry declares HTTP, as server.gen.ts names it.
function definition(registry: RegistrySpec): ServerDefinition {
  const modules =
    registry.transports.http === null ? {} : { http: () => import('../../templates/runtime/http.gen.js') };
  return {
    registry,
    schemas: compileSchemas(registry),
    handlers: { tools: {}, resources: {}, prompts: {} },
    modules,
    setup: async () => ({ setup: () => ({}) }),
  };
}

const withHttp: RegistrySpec = {
  ...demo,
  transports: {
    stdio: { maxConcurrentCalls: 100 },
    http: {
      host: '127.0.0.1',
      port: 3000,
      path: '/mcp',
      allowedOrigins: [],
      maxConcurrentCalls: 100,
      maxBufferedBytes: 16777216,
      shutdownGraceMs: 10000,
      maxListenStreams: 1000,
      maxListenStreamsPerPrincipal: 10,
      listenKeepAliveMs: 15000,
      listenIdleMs: 600000,
    },
  },
};

describe('startServer refusals', () => {
  it('refuses a bad transport, a bad port, an undeclared HTTP transport and a public host without auth', async () => {
    const cases: readonly [RegistrySpec, readonly string[], string][] = [
      [withHttp, ['--transport', 'sse'], '--transport must be "stdio" or "http", got "sse"'],
      [withHttp, ['--transport', 'http', '--port', '65536'], '--port must be a port number, got "65536"'],
      [withHttp, ['--transport', 'http', '--port', '3e3'], '--port must be a port number, got "3e3"'],
      [
        demo,
        ['--transport', 'http'],
        'this server declares no HTTP transport; add transports.http to the manifest and regenerate',
      ],
      [
        withHttp,
        ['--transport', 'http', '--host', '0.0.0.0'],
        'refusing to listen on non-loopback host "0.0.0.0" without ' +
          'authorization; set auth in the manifest or bind to 127.0.0.1',
      ],
    ];
    for (const [registry, argv, message] of cases) {
      const started = startServer(definition(registry), argv, {});
      await expect(started).rejects.toThrow(StartupError);
      await expect(started).rejects.toThrow(message);
    }
  });
});

describe('signing keys shorter than 32 bytes', () => {
  const withBearer: RegistrySpec = {
    ...withHttp,
    auth: { type: 'bearer', tokensEnv: 'DEMO_TOKENS', resource: 'https://mcp.example.com/mcp', scopes: [] },
  };
  const public_ = ['--transport', 'http', '--host', '0.0.0.0', '--port', '0'];
  const refusal = (name: string) =>
    `${name} is shorter than 32 bytes; set it to a random secret of at least 32 bytes (e.g. \`openssl rand -hex ` +
    '32`) and share it between all instances';

  it('refuse to start outside loopback and stdio, whether or not a feature of the server reads them', async () => {
    const { handleKeyEnv, requestStateKeyEnv } = demo.secrets;
    for (const name of [handleKeyEnv, requestStateKeyEnv]) {
      const started = startServer(definition(withBearer), public_, { [name]: 'k'.repeat(31) });
      await expect(started).rejects.toThrow(StartupError);
      await expect(started).rejects.toThrow(refusal(name));
    }
    // Bytes, not characters: 31 one-byte characters are refused, and so are 10 three-byte ones (30 bytes).
    const wide = startServer(definition(withBearer), public_, { [requestStateKeyEnv]: '€'.repeat(10) });
    await expect(wide).rejects.toThrow(refusal(requestStateKeyEnv));
  });
});

describe('calledTool', () => {
  const request = (headers: Record<string, string>) => new Request('http://127.0.0.1/mcp', { method: 'POST', headers });
  const call = { 'mcp-method': 'tools/call', 'mcp-name': 'add' };

  it('names the tool of a modern HTTP tools/call that is one of ours', () => {
    expect(calledTool(demo, { era: 'modern', requestInfo: request(call) })).toBe('add');
    expect(
      calledTool(demo, { era: 'modern', requestInfo: request({ 'mcp-method': ' tools/call ', 'mcp-name': ' add ' }) }),
    ).toBe('add');
  });

  it('names nothing for other requests, eras, encoded or unknown names, and stdio', () => {
    expect(calledTool(demo, { era: 'legacy', requestInfo: request(call) })).toBeUndefined();
    expect(
      calledTool(demo, { era: 'modern', requestInfo: request({ 'mcp-method': 'prompts/get', 'mcp-name': 'add' }) }),
    ).toBeUndefined();
    expect(
      calledTool(demo, { era: 'modern', requestInfo: request({ 'mcp-method': 'tools/call', 'mcp-name': 'nope' }) }),
    ).toBeUndefined();
    expect(
      calledTool(demo, {
        era: 'modern',
        requestInfo: request({ 'mcp-method': 'tools/call', 'mcp-name': '=?base64?YWRk?=' }),
      }),
    ).toBeUndefined();
    expect(calledTool(demo, { era: 'modern', requestInfo: request({ 'mcp-method': 'tools/call' }) })).toBeUndefined();
    expect(calledTool(demo, { era: 'modern' })).toBeUndefined();
    expect(calledTool(demo, undefined)).toBeUndefined();
  });
});
