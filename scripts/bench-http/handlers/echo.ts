// Copied over the generated stub of tool "echo" by scripts/bench-http/project.mjs.
import type { ToolHandler } from '../../generated/index.gen.js';

export const echoHandler: ToolHandler<'echo'> = async (input) => input.text;
