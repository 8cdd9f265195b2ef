import { ToolError, type ResourceHandler } from '../../generated/index.gen.js';
import { findNote } from '../../lib/store.js';

/**
 * Handler of resource "note".
 *
 * A note, as Markdown. An unknown id is the spec's "Resource not found" (-32602 with the URI).
 */
export const noteHandler: ResourceHandler<'note'> = async (_uri, variables) => {
  const note = findNote(variables.id);
  if (note === undefined) throw new ToolError(`No note has the id "${variables.id}".`, 'not_found');
  return `# ${note.title}\n\n${note.body}\n`;
};
