import type { ResourceHandler } from '../../generated/index.gen.js';

/** Handler of resource "style_guide": the team's writing rules, as Markdown. */
export const styleGuideHandler: ResourceHandler<'style_guide'> = async () =>
  '# Style guide\n\n- One idea per note.\n- Titles say what the note decides.\n';
