import type { CodeInfo } from './code-info.js';

/** Codes reported while planning and emitting a project (`mcp-gen generate`). */
export const generateCodes = {
  'type-name-collision': {
    severity: 'error',
    title: 'Two generated types would share a name',
    cause:
      'Two schemas define different types that json-schema-to-typescript names the same ' +
      '(two tools with different `$defs.Item`, or a `title` equal to a generated name).',
    fix: 'Rename one of the `$defs` entries or titles, or make both definitions identical so they are emitted once.',
  },
  'handler-orphaned': {
    severity: 'warning',
    title: 'Handler file without a manifest entry',
    cause:
      'A handler file exists for a tool, resource or prompt that the ' +
      'manifest no longer declares; it is kept but no longer registered.',
    fix:
      'Delete the file, or add `renamedFrom: <old name>` to the ' +
      'entry that replaced it so the file is renamed with its code.',
  },
  'handler-unparsable': {
    severity: 'warning',
    title: 'Handler file does not parse',
    cause:
      'A handler file has TypeScript syntax errors, so mcp-gen leaves ' +
      'it untouched (renames included) and generates everything else.',
    fix: 'Fix the syntax error at the reported position and run generate again.',
  },
  'handler-export-mismatch': {
    severity: 'warning',
    title: 'Handler file does not export the expected handler',
    cause:
      'The handler file does not export the constant the generated server imports, or declares it with another type.',
    fix:
      'Export the constant named in the message with the type named ' +
      'there; the type checker then points at any remaining mismatch.',
  },
  'readme-part-edited': {
    severity: 'warning',
    title: "README.md's generated part was edited",
    cause:
      'The lines between `<!-- mcp-gen:begin ... -->` and `<!-- mcp-gen:end -->` in README.md differ from what ' +
      'mcp-gen last wrote there (the digest in the begin line), so the run keeps them rather than lose the edit; ' +
      'the part no longer follows the manifest (port, transports, config, host snippets).',
    fix:
      'Move your text above the begin line or below the end line, then delete the lines between the two ' +
      '(keep those two lines): the next `generate` writes the part again.',
  },
  'readme-part-broken': {
    severity: 'warning',
    title: "README.md's generated part has no clear bounds",
    cause:
      'README.md has a `<!-- mcp-gen:begin ... -->` line without its `<!-- mcp-gen:end -->` line, more than ' +
      'one of either, or the end before the begin, so the run cannot tell which lines are its own and keeps the file.',
    fix:
      'Leave one begin line and one end line after it (delete the lines between them to have the part written ' +
      'again), or delete both to own the whole README; mcp-gen then never touches it.',
  },
  'package-json-unreadable': {
    severity: 'warning',
    title: 'package.json is not a JSON object',
    cause:
      'package.json does not parse as JSON (comments and trailing commas are not JSON), or holds something other ' +
      'than an object, so the run keeps it as it is: the keys mcp-gen owns in it (the dependencies the runtime ' +
      'imports, the build and start scripts, `type`, `engines`) no longer follow the manifest, and npm cannot read it.',
    fix: 'Make package.json one JSON object again (as `npm init` writes it), then run generate again.',
  },
} as const satisfies Record<string, CodeInfo>;
