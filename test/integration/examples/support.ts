import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { exampleDir } from '../../support/examples.js';
import { repoRoot } from '../../support/golden.js';
import { protocolVersion } from '../../support/paths.js';
import { compileProject, type Elicitor } from '../../support/servers.js';

// Helpers shared by the example tests: compile a committed example as a user would (its own tsconfig),
// and talk to it with the official client pinned to 2026-07-28.

export { protocolVersion };

/**
 * Compiles example `name` (`exampleDir`) into `.test-out/examples-<name>-<label>`; returns the entry point. Each test
 * file passes a label of its own: files run in parallel, and two compilers writing one folder race.
 */
export function compileExample(name: string, label: string): string {
  return compileProject(exampleDir(name), path.join(repoRoot, '.test-out', `examples-${name}-${label}`));
}

export type { Elicitor } from '../../support/servers.js';

/** A new official client with form elicitation, answered by `elicitor`, pinned to 2026-07-28. */
export function newClient(elicitor: Elicitor): Client {
  const client = new Client(
    { name: 'examples-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: protocolVersion } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as Record<string, unknown>;
    elicitor.seen.push(params);
    elicitor.onAsk?.(params);
    return elicitor.answer;
  });
  return client;
}

/** Starts `node entry` over stdio with only PATH and `env`, and connects a new client to it. */
export async function connectStdio(
  entry: string,
  elicitor: Elicitor,
  env: Readonly<Record<string, string>> = {},
): Promise<Client> {
  const client = newClient(elicitor);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [entry],
      env: { PATH: process.env.PATH ?? '', ...env },
      stderr: 'pipe',
    }),
  );
  return client;
}

/** The text of a tool result's single text block. */
export function textOf(result: { content?: unknown }): string {
  const content = result.content as { type: string; text?: string }[] | undefined;
  if (content?.length !== 1 || content[0]?.type !== 'text' || content[0].text === undefined)
    throw new Error(`expected one text block, got ${JSON.stringify(content)}`);
  return content[0].text;
}

/** The serverInfo `_meta` every result of `name` carries. */
export function serverMeta(name: string, title: string, version: string): Record<string, unknown> {
  return { 'io.modelcontextprotocol/serverInfo': { name, title, version } };
}
