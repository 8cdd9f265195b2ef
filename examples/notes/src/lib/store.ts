/**
 * The team's notes and open drafts, kept in this process's memory and seeded with two notes. Handler
 * modules load lazily, one per handler, but all of them import this one module, so they share its state.
 */
import { ToolError } from '../generated/index.gen.js';

/** A published note. */
export interface Note {
  readonly id: string;
  readonly title: string;
  readonly body: string;
  /** Publication order: a higher number is newer. */
  readonly sequence: number;
}

/** A draft, known by the id inside its `note_draft` handle. */
interface Draft {
  readonly owner: string;
  readonly title: string;
}

const notes = new Map<string, Note>([
  ['welcome', { id: 'welcome', title: 'Welcome to the team', body: 'Read the style guide, then say hello.', sequence: 1 }],
  ['release-checklist', { id: 'release-checklist', title: 'Release checklist', body: 'Tag, build, publish, announce.', sequence: 2 }],
]);
const drafts = new Map<string, Draft>();
let sequence = notes.size;

/** Notes whose title or body contains `query` (case-insensitive), newest first, at most `limit`. */
export function searchNotes(query: string, limit: number): Note[] {
  const needle = query.toLowerCase();
  return [...notes.values()]
    .filter((note) => note.title.toLowerCase().includes(needle) || note.body.toLowerCase().includes(needle))
    .sort((a, b) => b.sequence - a.sequence)
    .slice(0, limit);
}

/** The note with this id, or undefined. */
export function findNote(id: string): Note | undefined {
  return notes.get(id);
}

/** Every published note, oldest first: the order resources/list pages through. */
export function allNotes(): Note[] {
  return [...notes.values()].sort((a, b) => a.sequence - b.sequence);
}

/** Opens a draft for `owner` and returns its id (what the handle carries). */
export function startNoteDraft(owner: string, title: string): string {
  sequence += 1;
  const id = `draft-${sequence}`;
  drafts.set(id, { owner, title });
  return id;
}

/** Publishes a draft as a note; a draft is published at most once. */
export function publishNoteDraft(id: string, owner: string): Note {
  const draft = drafts.get(id);
  if (draft === undefined) throw new ToolError(`The draft was already published or has expired.`, 'conflict');
  if (draft.owner !== owner) throw new ToolError('This draft belongs to someone else.', 'invalid');
  drafts.delete(id);
  sequence += 1;
  const slug = draft.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'note';
  const noteId = notes.has(slug) ? `${slug}-${sequence}` : slug;
  const note: Note = { id: noteId, title: draft.title, body: '', sequence };
  notes.set(noteId, note);
  return note;
}
