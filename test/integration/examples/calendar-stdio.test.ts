import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accept, planRetro, retro, seeded, structured } from './calendar-support.js';
import { compileExample, connectStdio, textOf, type Elicitor } from './support.js';

// examples/calendar: the committed project compiled and driven over stdio by the official client.

/** The JSON-RPC error of a request that must fail. */
async function rpcError(request: Promise<unknown>): Promise<{ code: unknown; message: unknown }> {
  try {
    await request;
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return { code, message };
  }
  throw new Error('the request succeeded');
}

describe('examples/calendar over stdio', () => {
  let client: Client;
  const elicitor: Elicitor = { answer: { action: 'decline' }, seen: [] };

  beforeAll(async () => {
    client = await connectStdio(compileExample('calendar', 'stdio'), elicitor);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
  });

  it('lists six tools, two resource templates and two prompts, sorted by name', async () => {
    expect((await client.listTools()).tools.map((t) => [t.name, t.annotations?.destructiveHint ?? null])).toEqual([
      ['add_attendee', false],
      ['delete_event', true],
      ['find_events', null],
      ['schedule_event', false],
      ['send_invites', true],
      ['start_event_draft', false],
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => [t.name, t.uriTemplate])).toEqual([
      ['day', 'calendar://days/{date}'],
      ['event', 'calendar://events/{id}'],
    ]);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['daily_agenda', 'plan_meeting']);
  });

  it('finds the seeded events, earliest first, within [from, to)', async () => {
    expect(await structured(client, 'find_events', { from: '2026-08-03', to: '2026-08-05' })).toEqual({
      events: seeded,
    });
    expect(await structured(client, 'find_events', { from: '2026-08-04', to: '2026-08-05', limit: 1 })).toEqual({
      events: [seeded[2]],
    });
    const backwards = await client.callTool({
      name: 'find_events',
      arguments: { from: '2026-08-05', to: '2026-08-03' },
    });
    expect(textOf(backwards)).toBe(
      'to (2026-08-03) must be after from (2026-08-05); to is the first day NOT included.',
    );
  });

  it('plans an event through a draft handle: issue, add attendees, schedule (once)', async () => {
    await planRetro(client);
    const read = await client.readResource({ uri: 'calendar://events/evt_5' });
    expect(read.contents).toEqual([
      { uri: 'calendar://events/evt_5', mimeType: 'application/json', text: JSON.stringify(retro, null, 2) },
    ]);
    const day = await client.readResource({ uri: 'calendar://days/2026-08-05' });
    expect(JSON.parse((day.contents[0] as { text: string }).text)).toEqual({ date: '2026-08-05', events: [retro] });
  });

  it('refuses a forged draft handle before the handler runs', async () => {
    const result = await client.callTool({
      name: 'add_attendee',
      arguments: { draft: 'h1.eyJrIjoiZXZlbnRfZHJhZnQifQ.forged', email: 'eve@example.com' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Invalid arguments for tool add_attendee: not a valid event_draft handle');
  });

  it('delete_event asks first: declined, the event is still there; accepted, it is gone', async () => {
    elicitor.seen.length = 0;
    elicitor.answer = { action: 'decline' };
    const declined = await client.callTool({ name: 'delete_event', arguments: { id: 'evt_1' } });
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toBe('The user declined "Delete an event" (delete_event); nothing was done.');
    expect(elicitor.seen.map((p) => p.message)).toEqual([
      'Approve running "Delete an event" (delete_event) with arguments {"id":"evt_1"}?',
    ]);
    expect((await client.readResource({ uri: 'calendar://events/evt_1' }, { cacheMode: 'bypass' })).contents).toEqual([
      { uri: 'calendar://events/evt_1', mimeType: 'application/json', text: JSON.stringify(seeded[0], null, 2) },
    ]);

    elicitor.answer = accept;
    const accepted = await client.callTool({ name: 'delete_event', arguments: { id: 'evt_1' } });
    expect(accepted.isError).toBeUndefined();
    expect(textOf(accepted)).toBe('Deleted event evt_1 "Team standup" (2026-08-03T09:00:00Z).');
    expect(await rpcError(client.readResource({ uri: 'calendar://events/evt_1' }, { cacheMode: 'bypass' }))).toEqual({
      code: -32602,
      message: 'Resource not found: calendar://events/evt_1',
    });
    expect(await structured(client, 'find_events', { from: '2026-08-03', to: '2026-08-04' })).toEqual({
      events: [seeded[1]],
    });
    const again = await client.callTool({ name: 'delete_event', arguments: { id: 'evt_1' } });
    expect(textOf(again)).toBe('There is no event evt_1; nothing was deleted.');
    elicitor.answer = { action: 'decline' };
  });

  it('send_invites asks first and then records one invitation per attendee', async () => {
    elicitor.answer = { action: 'cancel' };
    const args = { id: 'evt_2', idempotencyKey: 'invite-evt_2-0001' };
    const cancelled = await client.callTool({ name: 'send_invites', arguments: args });
    expect(textOf(cancelled)).toBe('The user cancelled "Send invitations" (send_invites); nothing was done.');
    elicitor.answer = accept;
    expect(await structured(client, 'send_invites', args)).toEqual({
      eventId: 'evt_2',
      sentTo: ['ana@example.com', 'chen@example.com'],
    });
    // A retry with the same key gets the stored result: nobody is asked again and nothing is sent twice.
    elicitor.answer = { action: 'decline' };
    expect(await structured(client, 'send_invites', args)).toEqual({
      eventId: 'evt_2',
      sentTo: ['ana@example.com', 'chen@example.com'],
    });
    const reused = await client.callTool({
      name: 'send_invites',
      arguments: { id: 'evt_3', idempotencyKey: 'invite-evt_2-0001' },
    });
    expect(textOf(reused)).toBe(
      'The idempotencyKey was already used for a call of "send_invites" with ' +
        'other arguments; nothing was done. Use a new key for a new operation.',
    );
  });

  it('reads a day; a date that is not a real day is -32602', async () => {
    const day = await client.readResource({ uri: 'calendar://days/2026-08-04' });
    expect(day.contents[0]).toMatchObject({ uri: 'calendar://days/2026-08-04', mimeType: 'application/json' });
    expect(JSON.parse((day.contents[0] as { text: string }).text)).toEqual({
      date: '2026-08-04',
      events: [seeded[2], seeded[3]],
    });
    expect(await rpcError(client.readResource({ uri: 'calendar://days/2026-02-30' }))).toEqual({
      code: -32602,
      message: 'Resource not found: calendar://days/2026-02-30',
    });
  });

  it('renders plan_meeting from its fixed message and daily_agenda from its handler', async () => {
    expect(
      (
        await client.getPrompt({
          name: 'plan_meeting',
          arguments: { topic: 'the launch', attendees: 'ana@example.com, ben@example.com' },
        })
      ).messages,
    ).toEqual([
      {
        role: 'user',
        content: {
          type: 'text',
          text:
            'Plan a meeting about the launch. Find a free slot with find_events, start a ' +
            'draft, add each of these attendees (none if the list is empty): [ana@example.com, ' +
            'ben@example.com], then schedule it and ask me before sending invitations.',
        },
      },
    ]);
    expect((await client.getPrompt({ name: 'daily_agenda', arguments: { date: '2026-08-04' } })).messages).toEqual([
      {
        role: 'user',
        content: {
          type: 'text',
          text:
            'These are my events on 2026-08-04 (UTC):\n' +
            '- 09:00-09:15 UTC "Team standup" (evt_3; ana@example.com, ben@example.com)\n' +
            '- 10:00-11:30 UTC "Release planning" in "Room 1" (evt_4; ben@example.com, dana@example.com)\n\n' +
            'Prepare a short agenda (three bullet points at most) for each event, in this order.',
        },
      },
    ]);
    expect((await client.getPrompt({ name: 'daily_agenda', arguments: { date: '2026-09-01' } })).messages).toEqual([
      {
        role: 'user',
        content: { type: 'text', text: 'I have no events on 2026-09-01 (UTC). Suggest how to use the free day.' },
      },
    ]);
  });
});
