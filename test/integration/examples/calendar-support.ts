import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import { exampleDir } from '../../support/examples.js';
import { textOf, type Elicitor } from './support.js';

// examples/calendar as its stdio and OAuth tests see it: the seeded events, the retro a draft plans, and the calls
// that drive a client through them.

export const example = exampleDir('calendar');

export const seeded = [
  {
    id: 'evt_1',
    title: 'Team standup',
    start: '2026-08-03T09:00:00Z',
    end: '2026-08-03T09:15:00Z',
    attendees: ['ana@example.com', 'ben@example.com'],
  },
  {
    id: 'evt_2',
    title: 'Design review',
    start: '2026-08-03T14:00:00Z',
    end: '2026-08-03T15:00:00Z',
    location: 'Room 2',
    attendees: ['ana@example.com', 'chen@example.com'],
  },
  {
    id: 'evt_3',
    title: 'Team standup',
    start: '2026-08-04T09:00:00Z',
    end: '2026-08-04T09:15:00Z',
    attendees: ['ana@example.com', 'ben@example.com'],
  },
  {
    id: 'evt_4',
    title: 'Release planning',
    start: '2026-08-04T10:00:00Z',
    end: '2026-08-04T11:30:00Z',
    location: 'Room 1',
    attendees: ['ben@example.com', 'dana@example.com'],
  },
];
export const retro = {
  id: 'evt_5',
  title: 'Launch retro',
  start: '2026-08-05T13:30:00Z',
  end: '2026-08-05T14:15:00Z',
  location: 'Room 3',
  attendees: ['ana@example.com', 'ben@example.com'],
};
export const accept: Elicitor['answer'] = { action: 'accept', content: { confirm: true } };

/** The structuredContent of a successful call. */
export async function structured(client: Client, name: string, args: Record<string, unknown>): Promise<unknown> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError === true) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent;
}

/** Start a draft, add two attendees (one twice, in another case), schedule it: the planned retro. */
export async function planRetro(client: Client): Promise<void> {
  const started = (await structured(client, 'start_event_draft', {
    title: 'Launch retro',
    start: '2026-08-05T15:30:00+02:00',
    durationMinutes: 45,
    location: 'Room 3',
  })) as { draft: string };
  const draft = started.draft;
  expect(draft).toMatch(/^h1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  expect(await structured(client, 'add_attendee', { draft, email: 'Ana@Example.com' })).toEqual({
    attendees: ['ana@example.com'],
  });
  expect(await structured(client, 'add_attendee', { draft, email: 'ana@example.com' })).toEqual({
    attendees: ['ana@example.com'],
  });
  expect(await structured(client, 'add_attendee', { draft, email: 'ben@example.com' })).toEqual({
    attendees: ['ana@example.com', 'ben@example.com'],
  });
  expect(await structured(client, 'find_events', { from: '2026-08-05', to: '2026-08-06' })).toEqual({ events: [] });
  expect(await structured(client, 'schedule_event', { draft })).toEqual({ event: retro });
  expect(await structured(client, 'find_events', { from: '2026-08-05', to: '2026-08-06' })).toEqual({
    events: [retro],
  });
  const twice = await client.callTool({ name: 'schedule_event', arguments: { draft } });
  expect(twice.isError).toBe(true);
  expect(textOf(twice)).toBe('This event draft was already scheduled as evt_5; start a new draft for another event.');
}
