import { describe, expect, it } from 'vitest';
import { acceptedContent, type HandlerContext, sdkResult } from '../../templates/runtime/handler.gen.js';
import type { Handle, HandleIssuer } from '../../templates/runtime/handles.gen.js';
import { expectOutput, expectSdkResult, makeTestContext, readHandle } from '../../templates/runtime/testing.gen.js';

// What the facade's testContext() builds for a handler's unit test (docs/handlers.md, "Testing a handler").
type DraftHandle = Handle<'draft'>;
type Context = HandlerContext<{ readonly draft: HandleIssuer<DraftHandle> }> & { readonly services: { n: number } };

describe('testContext', () => {
  it('has the defaults of an anonymous stdio call', () => {
    const ctx = makeTestContext<Context>();
    expect(ctx.principal).toEqual({ id: 'anonymous', scopes: [] });
    expect(ctx.signal.aborted).toBe(false);
    expect(ctx.request).toEqual({ inputResponses: {}, requestState: undefined });
    expect(ctx.services).toEqual({});
    expect(ctx.log('dropped')).toBe(undefined);
  });

  it('issues handles that read back as the consuming handler receives them', () => {
    const ctx = makeTestContext<Context>({ principal: 'tester', scopes: ['w'], handleTtlMs: 60_000 });
    const before = Date.now();
    const token = ctx.handles.draft.issue('draft-7');
    const verified = readHandle(token);
    expect([verified.kind, verified.id, verified.token]).toEqual(['draft', 'draft-7', token]);
    expect(verified.expiresAt).toBeGreaterThanOrEqual(before + 60_000);
    expect(verified.expiresAt).toBeLessThanOrEqual(Date.now() + 60_000);
    expect(ctx.principal).toEqual({ id: 'tester', scopes: ['w'] });
    expect(() => readHandle('h1.forged.x' as DraftHandle)).toThrow('not a handle issued by a test context');
  });

  it('uses given issuers, services, signal and answers', () => {
    const controller = new AbortController();
    controller.abort();
    const lines: string[] = [];
    const ctx = makeTestContext<Context>({
      handles: { draft: { issue: (id) => `mine-${id}` as DraftHandle } },
      services: { n: 3 },
      signal: controller.signal,
      log: (line) => lines.push(line),
      answers: { confirm: { confirm: true }, other: 'decline' },
      requestState: 'state-1',
    });
    ctx.log('one');
    expect([ctx.handles.draft.issue('x'), ctx.services.n, ctx.signal.aborted, lines]).toEqual([
      'mine-x',
      3,
      true,
      ['one'],
    ]);
    expect(acceptedContent(ctx.request.inputResponses, 'confirm')).toEqual({ confirm: true });
    expect(acceptedContent(ctx.request.inputResponses, 'other')).toBe(undefined);
    expect(ctx.request.inputResponses.other).toEqual({ action: 'decline' });
    expect(ctx.request.requestState).toBe('state-1');
  });
});

describe('expectOutput and expectSdkResult', () => {
  it('return the typed reply or the SDK result, and throw for the other', () => {
    const sdk = sdkResult({ content: [{ type: 'text' as const, text: 'raw' }] });
    expect(expectOutput<{ ok: boolean }>({ ok: true })).toEqual({ ok: true });
    expect(() => expectOutput<string>(sdk)).toThrow('expected a typed reply, got {"content":[{"type":"text"');
    expect(expectSdkResult(sdk)).toEqual({ content: [{ type: 'text', text: 'raw' }] });
    expect(() => expectSdkResult('text')).toThrow('expected an SDK result, got "text"');
  });
});
