/**
 * The largest manifest mcp-gen accepts, written out: as many tools as the limit allows, each with a described
 * input and output schema, padded with description text until the file is exactly `bytes` long, and one tool
 * whose input schema nests to the depth limit. Used to measure and test what the largest input costs.
 */
import { manifestLimits, schemaLevel } from '../../src/model/limits.js';

/** A nested object schema `levels` mappings deep, in block YAML indented by `indent` spaces. */
function nestedSchema(levels: number, indent: number): string {
  const lines: string[] = [];
  // Each nested property takes two levels: the `properties` mapping and the property's own schema.
  let pad = indent;
  let level = 1;
  lines.push(`${' '.repeat(pad)}type: object`);
  while (level + 2 <= levels) {
    lines.push(`${' '.repeat(pad)}properties:`, `${' '.repeat(pad + 2)}inner:`);
    pad += 4;
    level += 2;
    lines.push(`${' '.repeat(pad)}type: object`);
  }
  // One mapping more when a level is left: the deepest value sits exactly at the limit.
  if (level < levels) lines.push(`${' '.repeat(pad)}propertyNames: { maxLength: 8 }`);
  return lines.join('\n');
}

function tool(index: number, padding: string): string {
  const name = `tool_${String(index).padStart(4, '0')}`;
  return [
    `  ${name}:`,
    `    description: Reads record ${index} of the catalog and returns its fields. ${padding}`,
    '    annotations: { readOnlyHint: true, openWorldHint: false }',
    '    input:',
    '      type: object',
    '      additionalProperties: false',
    '      required: [id]',
    '      properties:',
    '        id: { type: string, maxLength: 64, description: The record id as the catalog lists it. }',
    '        fields: { type: array, maxItems: 20, items: { type: string, maxLength: 64 }, description: Fields. }',
    '    output:',
    '      type: object',
    '      required: [id]',
    '      properties:',
    '        id: { type: string, description: The record id. }',
    '        values: { type: object, additionalProperties: { type: string }, description: Values by field. }',
    '',
  ].join('\n');
}

/** A valid manifest of `tools` tools (the limit by default), exactly `bytes` long (the limit by default). */
export function largestManifest(bytes: number = manifestLimits.bytes, tools: number = manifestLimits.tools): string {
  const head = [
    'mcpGen: 1',
    'server:',
    '  name: largest',
    '  version: 1.0.0',
    '  description: The largest manifest mcp-gen accepts.',
    'tools:',
    '  deepest:',
    '    description: Takes an input schema nested as deep as the limit allows.',
    '    annotations: { readOnlyHint: true, openWorldHint: false }',
    '    input:',
    nestedSchema(manifestLimits.depth - schemaLevel, 6),
    '',
  ].join('\n');
  const bare = [...Array(tools - 1).keys()].map((i) => tool(i, '')).join('');
  const spare = bytes - Buffer.byteLength(head) - Buffer.byteLength(bare);
  if (spare < 0) throw new Error(`${tools} tools do not fit in ${bytes} bytes`);
  const share = Math.floor(spare / (tools - 1));
  const extra = spare - share * (tools - 1);
  const filler = (length: number) => 'More detail. '.repeat(Math.ceil(length / 13)).slice(0, length);
  const body = [...Array(tools - 1).keys()].map((i) => tool(i, filler(share + (i === 0 ? extra : 0)))).join('');
  return head + body;
}
