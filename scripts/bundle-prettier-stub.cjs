// Takes Prettier's place in dist/bundle/ (scripts/bundle-cli.mjs): json-schema-to-typescript requires it
// on load, and mcp-gen always calls it with `format: false`, so it is never meant to run.
'use strict';
exports.format = () => {
  throw new Error('Prettier is not part of the mcp-gen bundle: compile with format: false');
};
