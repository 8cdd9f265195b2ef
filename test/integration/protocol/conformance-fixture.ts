import path from 'node:path';
import { fixtures } from './support.js';

// Handlers of test/fixtures/protocol/conformance.yaml: exactly the payloads the conformance
// suite's scenario descriptions ask for.

export const conformanceManifest = path.join(fixtures, 'conformance.yaml');

/** The fixture's signing keys (32 bytes or more), for every server the suites run against. */
export const conformanceKeys = {
  CONFORMANCE_FIXTURE_HANDLE_KEY: 'conformance-handle-key-0123456789abcdef',
  CONFORMANCE_FIXTURE_STATE_KEY: 'conformance-state-key-0123456789abcdef-',
} as const;

/** A 1x1 red PNG. */
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** An empty 8 kHz mono PCM WAV file (header only). */
const wav = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';

const tool = (file: string, symbol: string, body: string, imports = ''): [string, string] => [
  `src/handlers/tools/${file}.ts`,
  `import type { ToolHandler } from '../../generated/index.gen.js';
${imports}
export const ${symbol}Handler: ToolHandler<'${file}'> = ${body};
`,
];

const resource = (file: string, symbol: string, body: string): [string, string] => [
  `src/handlers/resources/${file}.ts`,
  `import type { ResourceHandler } from '../../generated/index.gen.js';

export const ${symbol}Handler: ResourceHandler<'${file}'> = ${body};
`,
];

const prompt = (file: string, symbol: string, body: string, imports = ''): [string, string] => [
  `src/handlers/prompts/${file}.ts`,
  `import type { PromptHandler } from '../../generated/index.gen.js';
${imports}
export const ${symbol}Handler: PromptHandler<'${file}'> = ${body};
`,
];

/** The MRTR helpers every input_required handler imports from the runtime (no SDK import needed). */
const mrtr =
  'import { acceptedContent, inputRequired, inputResponse, sdkResult } ' + "from '../../generated/index.gen.js';\n";
const askName = (key: string, message: string, property: string) =>
  `${key}: inputRequired.elicit({ message: '${message}', requestedSchema: { type: 'object', ` +
  `properties: { ${property}: { type: 'string' } }, required: ['${property}'] } })`;

/** The form of test_elicitation_sep1034_defaults: a default for every primitive type. */
const sep1034 = `{
      name: { type: 'string', default: 'John Doe' },
      age: { type: 'integer', default: 30 },
      score: { type: 'number', default: 95.5 },
      status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
      verified: { type: 'boolean', default: true },
    }`;

/** The form of test_elicitation_sep1330_enums: the five enum variants of SEP-1330. */
const sep1330 = `{
      untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
      titledSingle: {
        type: 'string',
        oneOf: [
          { const: 'value1', title: 'First Option' },
          { const: 'value2', title: 'Second Option' },
          { const: 'value3', title: 'Third Option' },
        ],
      },
      legacyEnum: {
        type: 'string',
        enum: ['opt1', 'opt2', 'opt3'],
        enumNames: ['Option One', 'Option Two', 'Option Three'],
      },
      untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
      titledMulti: {
        type: 'array',
        items: {
          anyOf: [
            { const: 'value1', title: 'First Choice' },
            { const: 'value2', title: 'Second Choice' },
            { const: 'value3', title: 'Third Choice' },
          ],
        },
      },
    }`;

export const conformanceHandlers: Readonly<Record<string, string>> = Object.fromEntries([
  tool('test_simple_text', 'testSimpleText', `async () => 'This is a simple text response for testing.'`),
  tool('json_schema_2020_12_tool', 'jsonSchema202012Tool', `async () => 'ok'`),
  tool('test_custom_header', 'testCustomHeader', `async (input) => \`region \${input.region}\``),
  // The suite's list-change hooks: the lists are fixed, so the change is announced, not made.
  tool(
    'test_trigger_tool_change',
    'testTriggerToolChange',
    `async (_input, ctx) => {
  ctx.notify.listChanged('tools');
  return 'tools/list_changed sent';
}`,
  ),
  tool(
    'test_trigger_prompt_change',
    'testTriggerPromptChange',
    `async (_input, ctx) => {
  ctx.notify.listChanged('prompts');
  return 'prompts/list_changed sent';
}`,
  ),
  tool(
    'test_image_content',
    'testImageContent',
    `async () => [{ type: 'image', data: '${png}', mimeType: 'image/png' }]`,
  ),
  tool(
    'test_audio_content',
    'testAudioContent',
    `async () => [{ type: 'audio', data: '${wav}', mimeType: 'audio/wav' }]`,
  ),
  tool(
    'test_embedded_resource',
    'testEmbeddedResource',
    "async () => [{ type: 'resource', resource: { uri: 'test://embedded-resource', " +
      "mimeType: 'text/plain', text: 'This is an embedded resource content.' } }]",
  ),
  tool(
    'test_multiple_content_types',
    'testMultipleContentTypes',
    `async () => [
  { type: 'text', text: 'Multiple content types test:' },
  { type: 'image', data: '${png}', mimeType: 'image/png' },
  {
    type: 'resource',
    resource: {
      uri: 'test://mixed-content-resource',
      mimeType: 'application/json',
      text: '{"test":"data","value":123}',
    },
  },
]`,
  ),
  tool(
    'test_error_handling',
    'testErrorHandling',
    `async () => {
  throw new ToolError('This tool intentionally returns an error for testing');
}`,
    `import { ToolError } from '../../generated/index.gen.js';\n`,
  ),
  tool(
    'test_tool_with_progress',
    'testToolWithProgress',
    `async (_input, ctx) => {
  for (const step of [0, 50, 100]) {
    await ctx.progress(step, 100);
    if (step < 100) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return 'Progress test completed';
}`,
  ),
  tool(
    'test_logging_tool',
    'testLoggingTool',
    `async (_input, ctx) => {
  ctx.log('test_logging_tool ran');
  return 'Logged to stderr only';
}`,
  ),
  tool('greet', 'greet', `async (input) => \`Hello, \${input.name}!\``),
  tool(
    'slow_compute',
    'slowCompute',
    `async (input, ctx) => {
  const steps = Math.ceil(input.seconds * 10);
  for (let step = 0; step < steps; step++) {
    ctx.signal.throwIfAborted();
    await ctx.progress(step, steps, \`step \${step} of \${steps}\`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return \`Computed \${input.label ?? 'result'} after \${input.seconds} s\`;
}`,
  ),
  tool(
    'failing_job',
    'failingJob',
    `async () => {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  throw new ToolError('failing_job always fails');
}`,
    `import { ToolError } from '../../generated/index.gen.js';\n`,
  ),
  tool(
    'protocol_error_job',
    'protocolErrorJob',
    // Content that is no content block: the SDK refuses the result, a JSON-RPC error, so the task is failed.
    `async () => sdkResult({ content: [{ type: 'not-a-content-type' }] } as never)`,
    `import { sdkResult } from '../../generated/index.gen.js';\n`,
  ),
  tool(
    'confirm_delete',
    'confirmDelete',
    `async (input, ctx) => {
  const answer = acceptedContent<{ confirm?: boolean }>(ctx.request.inputResponses, 'confirm_delete');
  if (answer === undefined) {
    const confirm = inputRequired.elicit({
      message: \`Delete \${input.filename}?\`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    });
    return sdkResult(inputRequired({ inputRequests: { confirm_delete: confirm } }));
  }
  return answer.confirm === true ? \`Deleted \${input.filename}\` : \`Kept \${input.filename}\`;
}`,
    mrtr,
  ),
  tool(
    'multi_input',
    'multiInput',
    `async (_input, ctx) => {
  const first = acceptedContent<{ name?: string }>(ctx.request.inputResponses, 'first');
  const second = acceptedContent<{ name?: string }>(ctx.request.inputResponses, 'second');
  if (first === undefined || second === undefined) {
    return sdkResult(inputRequired({ inputRequests: {
      ${askName('first', 'First name?', 'name')},
      ${askName('second', 'Second name?', 'name')},
    } }));
  }
  return \`Got \${String(first.name)} and \${String(second.name)}\`;
}`,
    mrtr,
  ),
  tool(
    'test_tool_with_task',
    'testToolWithTask',
    // taskStart: input: this round runs in the call (no task yet); the round with the answer runs as the task.
    `async (_input, ctx) => {
  const answer = acceptedContent<{ name?: string }>(ctx.request.inputResponses, 'user_name');
  if (answer === undefined) {
    return sdkResult(inputRequired({ inputRequests: { ${askName('user_name', 'What is your name?', 'name')} } }));
  }
  return \`Hello from the task, \${String(answer.name)}!\`;
}`,
    mrtr,
  ),
  tool('test_streaming_elicitation', 'testStreamingElicitation', `async () => 'Approved and done'`),
  tool('test_input_required_result_tampered_state', 'testInputRequiredResultTamperedState', `async () => 'state-ok'`),
  tool(
    'test_input_required_result_elicitation',
    'testInputRequiredResultElicitation',
    `async (_input, ctx) => {
  const answer = acceptedContent<{ name?: string }>(ctx.request.inputResponses, 'user_name');
  if (answer === undefined) {
    return sdkResult(inputRequired({ inputRequests: { ${askName('user_name', 'What is your name?', 'name')} } }));
  }
  return \`Hello, \${String(answer.name)}!\`;
}`,
    mrtr,
  ),
  tool(
    'test_input_required_result_sampling',
    'testInputRequiredResultSampling',
    `async (_input, ctx) => {
  const answer = inputResponse(ctx.request.inputResponses, 'capital_question');
  if (answer.kind !== 'sampling') {
    const question = inputRequired.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
      maxTokens: 100,
    });
    return sdkResult(inputRequired({ inputRequests: { capital_question: question } }));
  }
  const content = answer.result.content;
  return !Array.isArray(content) && content.type === 'text' ? content.text : 'no text in the sampling response';
}`,
    mrtr,
  ),
  tool(
    'test_input_required_result_list_roots',
    'testInputRequiredResultListRoots',
    `async (_input, ctx) => {
  const answer = inputResponse(ctx.request.inputResponses, 'client_roots');
  if (answer.kind !== 'roots') {
    return sdkResult(inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } }));
  }
  return \`Roots: \${answer.roots.map((root) => root.uri).join(', ')}\`;
}`,
    mrtr,
  ),
  tool(
    'test_input_required_result_request_state',
    'testInputRequiredResultRequestState',
    `async (_input, ctx) => {
  const { requestState, inputResponses } = ctx.request;
  if (requestState === 'round-1' && acceptedContent(inputResponses, 'confirm') !== undefined) return 'state-ok';
  const confirm = inputRequired.elicit({
    message: 'Please confirm',
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  });
  return sdkResult(inputRequired({ inputRequests: { confirm }, requestState: 'round-1' }));
}`,
    mrtr,
  ),
  tool(
    'test_input_required_result_multiple_inputs',
    'testInputRequiredResultMultipleInputs',
    `async (_input, ctx) => {
  const responses = ctx.request.inputResponses;
  const complete = ['user_name', 'greeting', 'client_roots'].every(
    (key) => inputResponse(responses, key).kind !== 'missing',
  );
  if (ctx.request.requestState === 'all-three' && complete) return 'Got all three inputs';
  const greeting = inputRequired.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
    maxTokens: 50,
  });
  return sdkResult(
    inputRequired({
      inputRequests: {
        ${askName('user_name', 'What is your name?', 'name')},
        greeting,
        client_roots: inputRequired.listRoots(),
      },
      requestState: 'all-three',
    }),
  );
}`,
    mrtr,
  ),
  tool(
    'test_input_required_result_multi_round',
    'testInputRequiredResultMultiRound',
    `async (_input, ctx) => {
  const { requestState, inputResponses } = ctx.request;
  const color = acceptedContent<{ color?: string }>(inputResponses, 'step2');
  if (requestState?.startsWith('round-2:') === true && color !== undefined) {
    return \`\${requestState.slice(8)} likes \${String(color.color)}\`;
  }
  const name = acceptedContent<{ name?: string }>(inputResponses, 'step1');
  if (requestState === 'round-1' && name !== undefined) {
    return sdkResult(
      inputRequired({
        inputRequests: { ${askName('step2', 'Step 2: What is your favorite color?', 'color')} },
        requestState: \`round-2:\${String(name.name)}\`,
      }),
    );
  }
  return sdkResult(
    inputRequired({
      inputRequests: { ${askName('step1', 'Step 1: What is your name?', 'name')} },
      requestState: 'round-1',
    }),
  );
}`,
    mrtr,
  ),
  tool(
    'test_input_required_result_capabilities',
    'testInputRequiredResultCapabilities',
    `async (_input, ctx) => {
  const answer = inputResponse(ctx.request.inputResponses, 'question');
  if (answer.kind === 'sampling') return 'Sampled';
  // Sampling only: the suite declares only sampling, and the SDK refuses an undeclared kind with -32021.
  const question = inputRequired.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }],
    maxTokens: 20,
  });
  return sdkResult(inputRequired({ inputRequests: { question } }));
}`,
    mrtr,
  ),
  tool(
    'test_missing_capability',
    'testMissingCapability',
    `async () => {
  const question = inputRequired.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }],
    maxTokens: 20,
  });
  return sdkResult(inputRequired({ inputRequests: { question } }));
}`,
    mrtr,
  ),
  tool(
    'test_tool_with_logging',
    'testToolWithLogging',
    `async (_input, ctx) => {
  for (const [i, line] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    ctx.log(line);
  }
  return 'Logged three lines';
}`,
  ),
  tool(
    'test_sampling',
    'testSampling',
    `async (input, ctx) => {
  const answer = inputResponse(ctx.request.inputResponses, 'reply');
  if (answer.kind !== 'sampling') {
    const reply = inputRequired.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: input.prompt } }],
      maxTokens: 100,
    });
    return sdkResult(inputRequired({ inputRequests: { reply } }));
  }
  const content = answer.result.content;
  return \`LLM response: \${!Array.isArray(content) && content.type === 'text' ? content.text : ''}\`;
}`,
    mrtr,
  ),
  tool(
    'test_elicitation',
    'testElicitation',
    `async (input, ctx) => {
  const answer = inputResponse(ctx.request.inputResponses, 'user');
  if (answer.kind !== 'elicit') {
    const requestedSchema = {
      type: 'object' as const,
      properties: {
        username: { type: 'string' as const, description: "User's response" },
        email: { type: 'string' as const, description: "User's email address" },
      },
      required: ['username', 'email'],
    };
    const user = inputRequired.elicit({ message: input.message, requestedSchema });
    return sdkResult(inputRequired({ inputRequests: { user } }));
  }
  return \`User response: action=\${answer.action}, content=\${JSON.stringify(answer.content ?? {})}\`;
}`,
    mrtr,
  ),
  ...(['test_elicitation_sep1034_defaults', 'test_elicitation_sep1330_enums'] as const).map((name) =>
    tool(
      name,
      name === 'test_elicitation_sep1034_defaults' ? 'testElicitationSep1034Defaults' : 'testElicitationSep1330Enums',
      `async (_input, ctx) => {
  const answer = inputResponse(ctx.request.inputResponses, 'form');
  if (answer.kind !== 'elicit') {
    const properties = ${name === 'test_elicitation_sep1034_defaults' ? sep1034 : sep1330};
    const form = inputRequired.elicit({
      message: 'Please fill in the form',
      requestedSchema: { type: 'object', properties } as never,
    });
    return sdkResult(inputRequired({ inputRequests: { form } }));
  }
  return \`Elicitation completed: action=\${answer.action}, content=\${JSON.stringify(answer.content ?? {})}\`;
}`,
      mrtr,
    ),
  ),
  prompt(
    'test_prompt_with_image',
    'testPromptWithImage',
    `async () => [
  { role: 'user', content: { type: 'image', data: '${png}', mimeType: 'image/png' } },
  { role: 'user', text: 'Please analyze the image above.' },
]`,
  ),
  prompt(
    'test_prompt_with_embedded_resource',
    'testPromptWithEmbeddedResource',
    `async (args) => [
  {
    role: 'user',
    content: {
      type: 'resource',
      resource: {
        uri: (args as { resourceUri?: string }).resourceUri ?? 'test://embedded',
        mimeType: 'text/plain',
        text: 'Embedded resource content for testing.',
      },
    },
  },
  { role: 'user', text: 'Please process the embedded resource above.' },
]`,
  ),
  prompt(
    'test_input_required_result_prompt',
    'testInputRequiredResultPrompt',
    `async (_args, ctx) => {
  const answer = acceptedContent<{ context?: string }>(ctx.request.inputResponses, 'user_context');
  if (answer === undefined) {
    return sdkResult(
      inputRequired({
        inputRequests: { ${askName('user_context', 'What context should the prompt use?', 'context')} },
      }),
    );
  }
  return [{ role: 'user', text: \`Use this context: \${String(answer.context)}\` }];
}`,
    `import { acceptedContent, inputRequired, sdkResult } from '../../generated/index.gen.js';\n`,
  ),
  resource('static_text', 'staticText', `async () => 'This is the content of the static text resource.'`),
  resource('static_binary', 'staticBinary', `async () => ({ blob: '${png}' })`),
  resource(
    'template_data',
    'templateData',
    'async (_uri, variables) => JSON.stringify({ id: variables.id, ' +
      `templateTest: true, data: \`Data for ID: \${variables.id}\` })`,
  ),
]);
