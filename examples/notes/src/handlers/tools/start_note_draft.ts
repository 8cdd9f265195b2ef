import { notImplemented, type ToolHandler } from '../../generated/index.gen.js';

/**
 * Handler of tool "start_note_draft".
 *
 * Start a note draft
 *
 * Open a new draft. Returns a draft handle to pass to the other draft tools.
 */
export const startNoteDraftHandler: ToolHandler<'start_note_draft'> = async (input, ctx) => {
  // Your code goes here: mcp-gen never overwrites this file.
  throw notImplemented('tool', 'start_note_draft');
};
