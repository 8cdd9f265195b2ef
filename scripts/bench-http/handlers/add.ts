// Copied over the generated stub of tool "add" by scripts/bench-http/project.mjs.
import type { ToolHandler } from '../../generated/index.gen.js';

export const addHandler: ToolHandler<'add'> = async (input) => ({ sum: input.a + input.b });
