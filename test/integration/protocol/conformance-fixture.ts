import path from 'node:path';
import { askName, png, prompt, resource } from './conformance-handler-kinds.js';
import { inputTools } from './conformance-input-tools.js';
import { fixtures } from './support.js';
import { contentAndTaskTools } from './conformance-task-tools.js';

// Handlers of test/fixtures/protocol/conformance.yaml: exactly the payloads the conformance
// suite's scenario descriptions ask for.

export const conformanceManifest = path.join(fixtures, 'conformance.yaml');

/** The fixture's signing keys (32 bytes or more), for every server the suites run against. */
export const conformanceKeys = {
  CONFORMANCE_FIXTURE_HANDLE_KEY: 'conformance-handle-key-0123456789abcdef',
  CONFORMANCE_FIXTURE_STATE_KEY: 'conformance-state-key-0123456789abcdef-',
} as const;

export const conformanceHandlers: Readonly<Record<string, string>> = Object.fromEntries([
  ...contentAndTaskTools,
  ...inputTools,
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
