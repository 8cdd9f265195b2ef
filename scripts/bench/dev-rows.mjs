// `mcp-gen dev` latency on the demo (made by `init --example demo`): one long-running `dev` (no console), each round
// saves a file and times, from the save, until the server answers with the change: (1) a handler save, until `add`
// answers with the new code's sum; (2) a manifest save adding a tool, until `tools/list` names it. The client polls
// with raw 2026-07-28 requests every 10 ms, as a person's client retries; a refused connection during the restart is
// a poll that did not answer yet. Bounded: 120 s to start, 30 s per save.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnNode, stopChild } from '../bench-http/processes.mjs';

const version = '2026-07-28';

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** One JSON-RPC request of protocol 2026-07-28; null when the server does not answer (restarting). */
async function rpc(url, method, params) {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': version,
    'mcp-method': method,
    ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
  };
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta } }),
      signal: AbortSignal.timeout(5000),
    });
    const text = await response.text();
    const data = text.includes('data: ')
      ? text
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .at(-1)
          .slice(6)
      : text;
    return JSON.parse(data);
  } catch {
    return null;
  }
}

async function until(check, timeoutMs, what) {
  const start = performance.now();
  while (!(await check())) {
    if (performance.now() - start > timeoutMs) throw new Error(`mcp-gen dev: ${what} within ${timeoutMs} ms`);
    await sleep(10);
  }
  return performance.now() - start;
}

const toolYaml = (name) =>
  [
    `  ${name}:`,
    `    title: Extra ${name}`,
    '    description: Returns its input; added by the benchmark.',
    '    annotations: { readOnlyHint: true, openWorldHint: false }',
    '    input: { type: object, properties: { text: { type: string } }, additionalProperties: false }',
    '',
  ].join('\n');

/** Runs `runs + discard` rounds of each save against one `dev`; returns the two latency rows. */
export async function benchDev({ root, scratch, runs, discard, progress }) {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  const cli = path.join(root, 'bin', 'mcp-gen.js');
  const init = spawnSync(process.execPath, [cli, 'init', 'demo', '--example', 'demo', '--transport', 'both', '--yes'], {
    cwd: scratch,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (init.status !== 0) throw new Error(`init failed: ${init.stderr}`);
  const project = path.join(scratch, 'demo');
  const handler = path.join(project, 'src', 'handlers', 'tools', 'add.ts');
  const manifest = path.join(project, 'mcp.yaml');
  const handlerText = readFileSync(handler, 'utf8');
  const manifestText = readFileSync(manifest, 'utf8');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const child = spawnNode([cli, 'dev', '--port', String(port), '--no-console'], process.env, { cwd: project });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk) => (output += chunk.toString('utf8')));
  const sumOf = async () => (await rpc(url, 'tools/call', { name: 'add', arguments: { a: 2, b: 3 } }))?.result;
  const handlerSaves = [];
  const toolSaves = [];
  try {
    await until(async () => (await sumOf())?.structuredContent?.sum === 5, 120_000, `the first build:\n${output}`);
    for (let i = 1; i <= runs + discard; i++) {
      await sleep(300); // past the watchers' debounce: every save is its own event
      const offset = i * 1000;
      const start = performance.now();
      writeFileSync(handler, handlerText.replace('input.a + input.b', `input.a + input.b + ${offset}`));
      await until(async () => (await sumOf())?.structuredContent?.sum === 5 + offset, 30_000, 'the new sum');
      const handlerMs = performance.now() - start;
      await sleep(300);
      const name = `extra_${i}`;
      const added = manifestText.replace(/^tools:\n/m, `tools:\n${toolYaml(name)}`);
      const started = performance.now();
      writeFileSync(manifest, added);
      const listed = async () => (await rpc(url, 'tools/list', {}))?.result?.tools?.some((t) => t.name === name);
      await until(listed, 30_000, `${name} listed:\n${output.slice(-2000)}`);
      const toolMs = performance.now() - started;
      if (i > discard) {
        handlerSaves.push(handlerMs);
        toolSaves.push(toolMs);
      }
      progress(i, runs + discard);
    }
  } finally {
    child.kill('SIGINT');
    await stopChild(child);
  }
  return [
    {
      figure: '`dev`: handler save → `add` answers with the new code',
      unit: 'ms',
      ours: handlerSaves,
      target: { max: 1000 },
    },
    {
      figure: '`dev`: manifest save adding a tool → the tool is listed',
      unit: 'ms',
      ours: toolSaves,
      target: { max: 2000 },
    },
  ];
}
