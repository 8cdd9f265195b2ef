/**
 * The calendar's data: events, drafts and the invitation outbox, kept in this
 * process's memory and seeded with a few events. Every handler goes through
 * these functions; none of them touches the network.
 *
 * Times are UTC and always written as `YYYY-MM-DDTHH:MM:SSZ`.
 */
import { randomUUID } from 'node:crypto';
import { ToolError } from '../generated/index.gen.js';
import type { Event } from '../generated/index.gen.js';

/** An event draft, known by the id inside its `event_draft` handle. */
interface Draft {
  readonly id: string;
  /** The principal the handle was issued to; the handle already enforces this, the store checks again. */
  readonly owner: string;
  readonly title: string;
  readonly start: string;
  readonly end: string;
  readonly location: string | undefined;
  readonly attendees: string[];
  readonly createdAt: number;
  /** Set once the draft became an event: a draft is scheduled at most once. */
  scheduledAs: string | null;
}

/** One invitation recorded instead of sent. */
interface Invitation {
  readonly eventId: string;
  readonly to: string;
  readonly sentBy: string;
}

/** The most attendees one event may have. */
export const maxAttendees = 50;

/** Drafts older than this are forgotten (their handles live 1 h; see the manifest). */
const draftLifetimeMs = 2 * 60 * 60 * 1000;

/** The events every fresh process starts with. */
export const seedEvents: readonly Event[] = [
  { id: 'evt_1', title: 'Team standup', start: '2026-08-03T09:00:00Z', end: '2026-08-03T09:15:00Z', attendees: ['ana@example.com', 'ben@example.com'] },
  { id: 'evt_2', title: 'Design review', start: '2026-08-03T14:00:00Z', end: '2026-08-03T15:00:00Z', location: 'Room 2', attendees: ['ana@example.com', 'chen@example.com'] },
  { id: 'evt_3', title: 'Team standup', start: '2026-08-04T09:00:00Z', end: '2026-08-04T09:15:00Z', attendees: ['ana@example.com', 'ben@example.com'] },
  { id: 'evt_4', title: 'Release planning', start: '2026-08-04T10:00:00Z', end: '2026-08-04T11:30:00Z', location: 'Room 1', attendees: ['ben@example.com', 'dana@example.com'] },
];

const events = new Map<string, Event>(seedEvents.map((event) => [event.id, copy(event)]));
const drafts = new Map<string, Draft>();
const outbox: Invitation[] = [];
let nextEventNumber = seedEvents.length + 1;

function copy(event: Event): Event {
  return { ...event, attendees: [...event.attendees] };
}

/** `2026-08-03T09:30:00Z`: an instant in UTC, whole seconds. */
export function utc(instant: Date): string {
  return instant.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Midnight UTC of a `YYYY-MM-DD` day, or null when it is not a real calendar date. */
export function parseDay(day: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const midnight = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(midnight.getTime()) || midnight.toISOString().slice(0, 10) !== day ? null : midnight;
}

function byStart(a: Event, b: Event): number {
  return a.start < b.start ? -1 : a.start > b.start ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Events starting in [from, to), earliest first, at most `limit`. */
export function eventsBetween(from: Date, to: Date, limit: number): Event[] {
  const lower = utc(from);
  const upper = utc(to);
  return [...events.values()]
    .filter((event) => event.start >= lower && event.start < upper)
    .sort(byStart)
    .slice(0, limit)
    .map(copy);
}

/** The event with `id`, or undefined. */
export function findEvent(id: string): Event | undefined {
  const event = events.get(id);
  return event === undefined ? undefined : copy(event);
}

/** Opens a draft for `owner`; returns its id (to be wrapped in a handle). */
export function createDraft(owner: string, title: string, start: Date, durationMinutes: number, location: string | undefined): string {
  const now = Date.now();
  for (const [id, draft] of drafts) if (now - draft.createdAt > draftLifetimeMs) drafts.delete(id);
  const id = randomUUID();
  const end = new Date(start.getTime() + durationMinutes * 60_000);
  drafts.set(id, { id, owner, title, start: utc(start), end: utc(end), location, attendees: [], createdAt: now, scheduledAs: null });
  return id;
}

/** The open draft `id` of `owner`; a ToolError the model can act on otherwise. */
function openDraft(id: string, owner: string): Draft {
  const draft = drafts.get(id);
  if (draft === undefined || draft.owner !== owner) {
    throw new ToolError('This event draft no longer exists (drafts are kept in memory and may be lost on restart). Start a new one with start_event_draft.');
  }
  if (draft.scheduledAs !== null) throw new ToolError(`This event draft was already scheduled as ${draft.scheduledAs}; start a new draft for another event.`);
  return draft;
}

/** Adds `email` (compared case-insensitively) to the draft; returns every attendee. */
export function addAttendee(draftId: string, owner: string, email: string): string[] {
  const draft = openDraft(draftId, owner);
  const address = email.toLowerCase();
  if (!draft.attendees.includes(address)) {
    if (draft.attendees.length >= maxAttendees) throw new ToolError(`An event can have at most ${maxAttendees} attendees.`);
    draft.attendees.push(address);
  }
  return [...draft.attendees];
}

/** Turns the draft into an event; returns the event. */
export function scheduleDraft(draftId: string, owner: string): Event {
  const draft = openDraft(draftId, owner);
  const id = `evt_${nextEventNumber++}`;
  const event: Event = {
    id,
    title: draft.title,
    start: draft.start,
    end: draft.end,
    ...(draft.location === undefined ? {} : { location: draft.location }),
    attendees: [...draft.attendees],
  };
  events.set(id, event);
  draft.scheduledAs = id;
  return copy(event);
}

/** Removes event `id`; returns what was removed. */
export function deleteEvent(id: string): Event {
  const event = events.get(id);
  if (event === undefined) throw new ToolError(`There is no event ${id}; nothing was deleted.`);
  events.delete(id);
  return event;
}

/** Records one invitation per attendee of event `id`; returns the addresses. */
export function sendInvites(id: string, sentBy: string): string[] {
  const event = events.get(id);
  if (event === undefined) throw new ToolError(`There is no event ${id}; no invitations were sent.`);
  if (event.attendees.length === 0) throw new ToolError(`Event ${id} has no attendees; no invitations were sent.`);
  for (const to of event.attendees) outbox.push({ eventId: id, to, sentBy });
  return [...event.attendees];
}
