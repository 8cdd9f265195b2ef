import path from 'node:path';

// Where things are, for every test module and the tiers' global setup: one definition, so a moved
// file cannot silently point somewhere else.

/** The repository root. */
export const repoRoot = path.resolve(import.meta.dirname, '..', '..');

/** The protocol revision a generated server serves: mcp-gen's own constant, never a copy of it. */
export { protocolVersion } from '../../src/model/defaults.js';
