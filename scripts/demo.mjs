// `npm run demo`: the bundled demo example, end to end. Validates and reviews its manifest (the
// design gate), checks that its committed generated code is current, compiles it, starts the
// server over stdio and makes one real tools/call with the official client.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (command, args) => {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8' });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  if (result.status !== 0) process.exit(result.status ?? 1);
};

console.log('$ mcp-gen generate examples/demo/mcp.yaml --check');
run(process.execPath, ['bin/mcp-gen.js', 'generate', 'examples/demo/mcp.yaml', '--check']);
console.log('\n$ mcp-gen check examples/demo/mcp.yaml');
run(process.execPath, ['bin/mcp-gen.js', 'check', 'examples/demo/mcp.yaml']);

const out = fileURLToPath(new URL('../.demo/', import.meta.url));
run(fileURLToPath(new URL('../node_modules/.bin/tsc', import.meta.url)), [
  '-p',
  'examples/demo/tsconfig.json',
  '--outDir',
  out,
]);

const client = new Client(
  { name: 'mcp-gen-demo', version: '1.0.0' },
  { versionNegotiation: { mode: { pin: '2026-07-28' } } },
);
await client.connect(
  new StdioClientTransport({ command: process.execPath, args: [`${out}src/main.js`], stderr: 'ignore' }),
);
try {
  const request = { name: 'add', arguments: { a: 40, b: 2 } };
  const result = await client.callTool(request);
  console.log(`\n$ tools/call ${JSON.stringify(request)}   (official client, stdio, protocol 2026-07-28)`);
  console.log(
    JSON.stringify(
      { content: result.content, structuredContent: result.structuredContent, isError: result.isError ?? false },
      null,
      2,
    ),
  );
} finally {
  await client.close();
}
