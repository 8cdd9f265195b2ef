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
} as const satisfies Record<string, CodeInfo>;
