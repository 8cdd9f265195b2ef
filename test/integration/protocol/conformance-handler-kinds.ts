// The handler files the conformance fixture writes, one per tool, resource and prompt, and the pieces their
// bodies share.

/** A 1x1 red PNG. */
export const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** An empty 8 kHz mono PCM WAV file (header only). */
export const wav = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';

export const tool = (file: string, symbol: string, body: string, imports = ''): [string, string] => [
  `src/handlers/tools/${file}.ts`,
  `import type { ToolHandler } from '../../generated/index.gen.js';
${imports}
export const ${symbol}Handler: ToolHandler<'${file}'> = ${body};
`,
];

export const resource = (file: string, symbol: string, body: string): [string, string] => [
  `src/handlers/resources/${file}.ts`,
  `import type { ResourceHandler } from '../../generated/index.gen.js';

export const ${symbol}Handler: ResourceHandler<'${file}'> = ${body};
`,
];

export const prompt = (file: string, symbol: string, body: string, imports = ''): [string, string] => [
  `src/handlers/prompts/${file}.ts`,
  `import type { PromptHandler } from '../../generated/index.gen.js';
${imports}
export const ${symbol}Handler: PromptHandler<'${file}'> = ${body};
`,
];

/** The MRTR helpers every input_required handler imports from the runtime (no SDK import needed). */
export const mrtr =
  'import { acceptedContent, inputRequired, inputResponse, sdkResult } ' + "from '../../generated/index.gen.js';\n";
export const askName = (key: string, message: string, property: string) =>
  `${key}: inputRequired.elicit({ message: '${message}', requestedSchema: { type: 'object', ` +
  `properties: { ${property}: { type: 'string' } }, required: ['${property}'] } })`;
