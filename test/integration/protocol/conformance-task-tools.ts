import { askName, mrtr, png, tool, wav } from './conformance-handler-kinds.js';

// Tool handlers of the conformance fixture: content of every kind, list changes, errors, progress, logging and
// the tools that run as tasks.

export const contentAndTaskTools: readonly [string, string][] = [
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
];
