import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';

// The SDK has no public way to answer `tools/call` with a CreateTaskResult: every handler set with
// setRequestHandler('tools/call') is wrapped to validate its result as a CallToolResult. So tasks.gen.ts reads the
// SDK's own tools/call handler with `_getRequestHandler` and replaces it in the private `_requestHandlers` map, and
// register.gen.ts wraps the list handlers the same way (pages). This test fails when an SDK upgrade moves either:
// fix tasks.gen.ts's attach and register.gen.ts's pages before bumping the pin. (That dispatch goes through the map
// is shown by test/integration/runtime/tasks-memory.test.ts: a task tool call answers `resultType: "task"`.)

type Handler = (request: unknown, ctx: unknown) => Promise<unknown>;

describe('the SDK internals the runtime relies on', () => {
  const server = new McpServer({ name: 'seams', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('echo', { description: 'Echoes.' }, async () => ({ content: [{ type: 'text', text: 'x' }] }));
  const sdk = server.server as unknown as {
    _getRequestHandler?: (method: string) => Handler | undefined;
    _requestHandlers?: unknown;
  };

  it('keeps request handlers in a Map named _requestHandlers, with tools/call and tools/list in it', () => {
    expect(sdk._requestHandlers).toBeInstanceOf(Map);
    const handlers = sdk._requestHandlers as Map<string, Handler>;
    expect(typeof handlers.get('tools/call')).toBe('function');
    expect(typeof handlers.get('tools/list')).toBe('function');
  });

  it('reads a handler with _getRequestHandler from that map, so a replacement set there is the one found', () => {
    expect(typeof sdk._getRequestHandler).toBe('function');
    const handlers = sdk._requestHandlers as Map<string, Handler>;
    expect(sdk._getRequestHandler?.('tools/call')).toBe(handlers.get('tools/call'));
    const replacement: Handler = async () => ({ resultType: 'task' });
    handlers.set('tools/call', replacement);
    expect(sdk._getRequestHandler?.('tools/call')).toBe(replacement);
  });

  it('answers server/discover from _ondiscover, the instance method register.gen.ts replaces (legacy: serve)', () => {
    // As the SDK's HTTP entry sets an instance up for 2026-07-28 (installModernOnlyHandlers).
    const options = { capabilities: { tools: {} }, supportedProtocolVersions: ['2026-07-28', '2025-11-25'] };
    const inner = new McpServer({ name: 'seams', version: '1.0.0' }, options).server as unknown as {
      _ondiscover(): { supportedVersions: string[] };
      _getRequestHandler(method: string): Handler | undefined;
    };
    // The SDK lists modern revisions only, whatever else the instance supports; the handler calls the method, so the
    // replacement answers (test/integration/protocol/discovery.test.ts shows it over HTTP and stdio).
    expect(inner._ondiscover().supportedVersions).toEqual(['2026-07-28']);
    expect(typeof inner._getRequestHandler('server/discover')).toBe('function');
  });

  it('installs the tools handlers again once its flag is reset, giving setRequestHandler the unwrapped handler', () => {
    // search.gen.ts keeps the SDK's own tools/call handler this way for call_tool.
    const fresh = new McpServer({ name: 'seams', version: '1.0.0' }, { capabilities: { tools: {} } });
    const inner = fresh.server as unknown as {
      _requestHandlers: Map<string, Handler>;
      setRequestHandler(method: string, ...rest: unknown[]): void;
    };
    const mcp = fresh as unknown as { _toolHandlersInitialized?: boolean; setToolRequestHandlers?: () => void };
    expect(mcp._toolHandlersInitialized).toBe(true);
    expect(typeof mcp.setToolRequestHandlers).toBe('function');
    inner._requestHandlers.delete('tools/call');
    inner._requestHandlers.delete('tools/list');
    mcp._toolHandlersInitialized = false;
    const given: string[] = [];
    const install = inner.setRequestHandler;
    inner.setRequestHandler = function (this: unknown, method: string, ...rest: unknown[]) {
      given.push(`${method}:${typeof rest[0]}`);
      return (install as (...args: unknown[]) => void).call(this, method, ...rest);
    };
    mcp.setToolRequestHandlers?.();
    expect(given).toEqual(['tools/list:function', 'tools/call:function']);
    expect(typeof inner._requestHandlers.get('tools/call')).toBe('function');
  });

  it('keeps tools and prompts by name in _registeredTools and _registeredPrompts, read at each registration', () => {
    // register.gen.ts replaces both with objects without a prototype, so that "constructor" is no tool of Object's.
    const fresh = new McpServer({ name: 'seams', version: '1.0.0' }, { capabilities: { tools: {}, prompts: {} } });
    const named = fresh as unknown as Record<'_registeredTools' | '_registeredPrompts', Record<string, unknown>>;
    expect(Object.getPrototypeOf(named._registeredTools)).toBe(Object.prototype);
    expect(Object.keys(named._registeredPrompts)).toEqual([]);
    named._registeredTools = Object.create(null);
    named._registeredPrompts = Object.create(null);
    fresh.registerTool('constructor', { description: 'x' }, async () => ({ content: [] }));
    fresh.registerPrompt('toString', { description: 'x' }, async () => ({ messages: [] }));
    expect(Object.keys(named._registeredTools)).toEqual(['constructor']);
    expect(Object.keys(named._registeredPrompts)).toEqual(['toString']);
  });
});
