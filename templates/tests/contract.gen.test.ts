/**
 * Contract tests: this server keeps the MCP 2026-07-28 protocol. They start the
 * compiled server (`npm test` builds first) with MCP_GEN_TEST_MODE=1 and check
 * the wire, one test per check of DESIGN.md's verification plan; where a handler
 * is still the generated stub, they expect exactly its "not implemented" error.
 * Then each `examples` entry of the manifest calls its handler and checks the
 * answer; a stub's example is skipped and counted as not implemented, never
 * passed. Nothing runs the handler of a tool that is not read-only unless
 * MCP_GEN_TEST_WRITES=1: such tests are skipped and counted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test, type TestContext } from 'node:test';
import { fromJsonSchema } from '@modelcontextprotocol/server';
import { registry } from '../src/generated/registry.gen.js';
import { envelope, type Message } from './contract-client.gen.js';
import { checks } from './contract-checks.gen.js';
import { examples, plan } from './contract-plan.gen.js';
import { call, closeSession, openSession, started } from './contract-session.gen.js';
import type { Example } from './contract-types.gen.js';
import {
  authToken,
  isStub,
  stubText,
  textOf,
  withHandles,
  writesAllowed,
  writesSkipped,
} from './contract-support.gen.js';

before(openSession);
after(closeSession);

/** Prints how many tests were skipped because they would change data, and which (after the run, like `# pass`). */
// A line the test file prints: the runner shows it as a comment (`# ...` under TAP, escaping a `#` of its own).
function countSkippedWrites(what: string, skipped: readonly string[]): void {
  if (skipped.length > 0)
    console.log(
      `skipped: ${skipped.length} ${what} that change data (${skipped.join(', ')}); ` +
        'set MCP_GEN_TEST_WRITES=1 against a test backend to run them',
    );
}

describe(`contract of ${registry.server.name} (MCP 2026-07-28)`, () => {
  const skippedWrites: string[] = [];
  after(() => countSkippedWrites('check(s) running tools', skippedWrites));
  for (const item of plan) {
    const needsToken =
      (item.id === 'headers' || item.id === 'notifications') &&
      authToken() === undefined &&
      registry.transports.http !== null;
    const changesData = item.writes === true && !writesAllowed;
    if (changesData) skippedWrites.push(`${item.id} ${item.target}`);
    test(item.test, {
      skip: changesData
        ? writesSkipped
        : needsToken
          ? 'set CONTRACT_TEST_TOKEN to an access token of this server to run it'
          : false,
    }, () => {
      started();
      const check = checks[item.id];
      assert.ok(check, `no check for ${item.id}`);
      return check(item);
    });
  }
});

/** Calls one example; a tool that asks for approval gets the user's yes. Returns the result or the error. */
async function callExample(example: Example): Promise<Message> {
  const method =
    example.kind === 'tool' ? 'tools/call' : example.kind === 'resource' ? 'resources/read' : 'prompts/get';
  const params =
    example.kind === 'tool' ? { ...example.params, arguments: withHandles(example.params.arguments) } : example.params;
  const elicit = envelope('2026-07-28', { elicitation: { form: {} } });
  const first = await call(method, params, elicit);
  if (first.result?.resultType !== 'input_required' || first.result.inputRequests?.confirm === undefined) return first;
  return call(
    method,
    {
      ...params,
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      requestState: first.result.requestState,
    },
    elicit,
  );
}

const notImplemented = new Set<string>();
const skippedWrites: string[] = [];

/**
 * Checks one example's answer; a stub's answer skips the test and counts its handler as not implemented. An example
 * of a tool that changes data runs only with MCP_GEN_TEST_WRITES=1 (a stub's is counted as not implemented).
 */
async function checkExample(example: Example, t: TestContext): Promise<void> {
  if (example.writes && !writesAllowed) {
    if (isStub(example.kind, example.name)) {
      notImplemented.add(`${example.kind} ${example.name}`);
      return t.skip('not implemented');
    }
    skippedWrites.push(`${example.kind} ${example.name}`);
    return t.skip(writesSkipped);
  }
  started();
  const answer = await callExample(example);
  const failure =
    example.kind === 'tool'
      ? answer.result?.isError === true
        ? textOf(answer.result)
        : null
      : (answer.error?.message ?? null);
  if (failure === stubText(example.kind, example.name)) {
    notImplemented.add(`${example.kind} ${example.name}`);
    return t.skip('not implemented');
  }
  if (example.error !== null) {
    assert.ok(
      failure?.includes(example.error),
      `expected an error containing ${JSON.stringify(example.error)}, got ${JSON.stringify(answer)}`,
    );
    return;
  }
  assert.equal(failure, null, `the call failed: ${JSON.stringify(answer)}`);
  const { result } = answer;
  if (example.kind === 'tool') {
    const schema = registry.tools.find((tool) => tool.name === example.name)?.outputSchema ?? null;
    if (schema !== null) {
      const checked = await fromJsonSchema(schema as Record<string, unknown>)['~standard'].validate(
        result.structuredContent,
      );
      assert.equal(
        checked.issues,
        undefined,
        `structuredContent matches the output schema: ${JSON.stringify(checked.issues)}`,
      );
    }
    if (example.output !== null) assert.deepEqual(result.structuredContent, example.output);
  } else if (example.text !== null) {
    const first = example.kind === 'resource' ? result.contents?.[0]?.text : result.messages?.[0]?.content?.text;
    assert.equal(first, example.text);
  }
}

describe(`handlers of ${registry.server.name} answer the manifest's examples`, () => {
  after(() => {
    countSkippedWrites('example(s) of tools', skippedWrites);
    if (notImplemented.size > 0)
      console.log(
        `not implemented: ${notImplemented.size} handler(s) still the generated stub: ` +
          `${[...notImplemented].join(', ')}`,
      );
  });
  examples.forEach((example, i) => {
    test(`${example.kind} ${example.name}: example ${i + 1}`, (t) => checkExample(example, t));
  });
});
