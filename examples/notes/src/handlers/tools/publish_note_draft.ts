import { notImplemented, type ToolHandler } from '../../generated/index.gen.js';

/**
 * Handler of tool "publish_note_draft".
 *
 * Publish a note draft
 *
 * Publish the draft so the whole team sees it. Cannot be undone.
 */
export const publishNoteDraftHandler: ToolHandler<'publish_note_draft'> = async (input, ctx) => {
  // Your code goes here: mcp-gen never overwrites this file.
  throw notImplemented('tool', 'publish_note_draft');
};
