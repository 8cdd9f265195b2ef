// Synthetic manifests of a given size, shaped like real ones: each tool has hints, bounded
// inputs, an output schema, and every tenth tool uses a state handle.

/** YAML text of a manifest with `count` tools. */
export function syntheticManifest(count) {
  const lines = [
    'mcpGen: 1',
    'server: { name: bench, version: 1.0.0 }',
    'handles:',
    '  job: { description: A running job., ttl: 1h }',
    'tools:',
  ];
  for (let i = 0; i < count; i++) {
    const name = `tool_${String(i).padStart(5, '0')}`;
    const issues = i === 0;
    const consumes = i % 10 === 5;
    lines.push(
      `  ${name}:`,
      `    title: Tool number ${i}`,
      `    description: Look up record ${i} by its key and return its fields, newest first.`,
      `    annotations: { readOnlyHint: ${!issues && !consumes}, openWorldHint: ` +
        `false${issues || consumes ? ', destructiveHint: false' : ''} }`,
      '    input:',
      '      type: object',
      '      additionalProperties: false',
      '      required: [key]',
      '      properties:',
      '        key: { type: string, minLength: 1, maxLength: 64 }',
      '        limit: { type: integer, minimum: 1, maximum: 100, default: 10 }',
      ...(consumes ? ['        job: { $handle: job }'] : []),
      '    output:',
      '      type: object',
      '      required: [items]',
      '      properties:',
      `        items: { type: array, maxItems: 100, items: { $ref: "#/$defs/Item" } }`,
      ...(issues ? ['        job: { $handle: job }'] : []),
      '      $defs:',
      '        Item: { type: object, properties: { id: { type: string }, value: { type: number } }, required: [id] }',
    );
  }
  return `${lines.join('\n')}\n`;
}
