import { askName, mrtr, tool } from './conformance-handler-kinds.js';

// Tool handlers of the conformance fixture that ask the client for input (input_required results, sampling,
// elicitation forms) or need a capability the client may lack.

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

export const inputTools: readonly [string, string][] = [
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
];
