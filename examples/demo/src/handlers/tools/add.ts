import type { ToolHandler } from '../../generated/index.gen.js';

/**
 * Handler of tool "add".
 *
 * Add two integers
 *
 * Both addends are integers within ±1e9 (the input schema is checked before this runs), so the sum
 * stays far below Number.MAX_SAFE_INTEGER and is exact. The runtime returns it as structuredContent
 * plus a JSON text copy.
 */
export const addHandler: ToolHandler<'add'> = async (input) => ({ sum: input.a + input.b });
