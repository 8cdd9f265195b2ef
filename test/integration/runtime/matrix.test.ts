import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIn } from '../../support/golden.js';
import { startJwks } from '../../support/servers.js';
import { connectClient, repoRoot, startHttpServer, version } from './harness.js';
import { bearerToken, type Combo, combos, echo, keys, manifest, oauth } from './matrix-projects.js';

// Every runtime module in a project that type-checks under strict and answers a real tools/call on
// each transport it declares. The runtime is emitted per feature, so the features are combined
// pairwise (transport x auth, and every pair of the other features, each on and off) rather than
// all 2^n ways: 8 projects, generated from the manifests of matrix-projects.ts, compiled in one tsc program.

const root = path.join(repoRoot, '.test-out', 'matrix');

let jwks: Server | undefined;
let signingKey: CryptoKey;
const runtimeFiles = new Map<string, string[]>();

async function accessToken(): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ scope: 'items.read' })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer(oauth.issuer)
    .setAudience(oauth.resource)
    .setSubject('dana')
    .setIssuedAt(now - 60)
    .setExpirationTime(now + 300)
    .sign(signingKey);
}

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  signingKey = pair.privateKey;
  const started = await startJwks(pair.publicKey);
  jwks = started.server;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  for (const combo of combos) {
    const dir = path.join(root, combo.name);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'mcp.yaml'), manifest(combo, started.url));
    const generated = await runIn(dir, ['generate', 'mcp.yaml']);
    if (generated.code !== 0) throw new Error(`generate ${combo.name} failed:\n${generated.stdout}${generated.stderr}`);
    writeFileSync(path.join(dir, 'src', 'handlers', 'tools', 'echo.ts'), echo);
    runtimeFiles.set(combo.name, readdirSync(path.join(dir, 'src', 'generated', 'runtime')).sort());
  }
  // One strict program over every project (sources and contract tests), with the projects' own settings.
  const tsconfig = {
    compilerOptions: {
      target: 'es2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      strict: true,
      skipLibCheck: true,
      types: ['node'],
      rootDir: '.',
      outDir: 'dist',
    },
    include: ['*/src/**/*.ts', '*/test/**/*.ts'],
  };
  writeFileSync(path.join(root, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  const tsc = spawnSync(path.join(repoRoot, 'node_modules', '.bin', 'tsc'), ['-p', path.join(root, 'tsconfig.json')], {
    encoding: 'utf8',
    timeout: 240_000,
  });
  if (tsc.status !== 0) throw new Error(`tsc failed:\n${tsc.stdout}${tsc.stderr}`);
  writeFileSync(path.join(root, 'dist', 'package.json'), '{ "type": "module" }\n');
}, 400_000);

afterAll(async () => {
  await new Promise((resolve) => (jwks === undefined ? resolve(undefined) : jwks.close(resolve)));
});

const entryOf = (combo: Combo): string => path.join(root, 'dist', combo.name, 'src', 'main.js');
const env = { ...keys, MATRIX_TOKENS: `${bearerToken}=alice:items.read` };

async function callOverStdio(combo: Combo): Promise<unknown[]> {
  const client = new Client({ name: 'matrix', version: '1.0.0' }, { versionNegotiation: { mode: { pin: version } } });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [entryOf(combo), '--transport', 'stdio'],
      env: { PATH: process.env.PATH ?? '', ...env },
    }),
  );
  try {
    const answers: unknown[] = [(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).structuredContent];
    // The optional modules that register primitives run on every full server build.
    if (combo.resources) answers.push((await client.listResources()).resources.map((r) => r.name));
    if (combo.prompts)
      answers.push((await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } })).messages[0]?.content);
    return answers;
  } finally {
    await client.close();
  }
}

async function callOverHttp(combo: Combo): Promise<unknown> {
  const server = await startHttpServer(entryOf(combo), env);
  try {
    const token = combo.auth === 'bearer' ? bearerToken : combo.auth === 'oauth' ? await accessToken() : undefined;
    const client = await connectClient(server.url, token, { answer: { action: 'decline' }, seen: [] });
    try {
      return (await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).structuredContent;
    } finally {
      await client.close();
    }
  } finally {
    await server.stop();
  }
}

describe('every feature combination type-checks and answers tools/call', () => {
  for (const combo of combos) {
    if (combo.transport !== 'http') {
      it(`${combo.name} over stdio`, async () => {
        const extra = [
          ...(combo.resources ? [['readme']] : []),
          ...(combo.prompts ? [{ type: 'text', text: 'Hello Ada' }] : []),
        ];
        expect(await callOverStdio(combo)).toEqual([{ text: 'hi' }, ...extra]);
      });
    }
    if (combo.transport !== 'stdio') {
      it(`${combo.name} over HTTP`, async () => {
        expect(await callOverHttp(combo)).toEqual({ text: 'hi' });
      });
    }
  }

  it('covers every runtime module, and leaves out each optional one somewhere', () => {
    const templates = readdirSync(path.join(repoRoot, 'templates', 'runtime')).sort();
    const files = [...runtimeFiles.values()];
    expect([...new Set(files.flat())].sort()).toEqual(templates);
    const optional = templates.filter((name) => files.some((list) => !list.includes(name)));
    expect(optional).toEqual([
      'approval-html.gen.ts',
      'approval-page.gen.ts',
      'approval.gen.ts',
      'auth.gen.ts',
      'config.gen.ts',
      'digest.gen.ts',
      'dynamic.gen.ts',
      'handles.gen.ts',
      'http-endpoint.gen.ts',
      'http-fast.gen.ts',
      'http-fetch.gen.ts',
      'http-pinned.gen.ts',
      'http-probes.gen.ts',
      'http-request.gen.ts',
      'http-server.gen.ts',
      'http.gen.ts',
      'idempotency.gen.ts',
      'keys.gen.ts',
      'legacy-http.gen.ts',
      'legacy.gen.ts',
      'listen-streams.gen.ts',
      'notify-durable.gen.ts',
      'notify-redis.gen.ts',
      'notify.gen.ts',
      'oauth.gen.ts',
      'own-properties.gen.ts',
      'prompts.gen.ts',
      'resources.gen.ts',
      'search-index.gen.ts',
      'search-words.gen.ts',
      'search.gen.ts',
      'state-object.gen.ts',
      'store-durable.gen.ts',
      'store-redis.gen.ts',
      'store.gen.ts',
      'tasks-listen.gen.ts',
      'tasks-record.gen.ts',
      'tasks.gen.ts',
      'telemetry.gen.ts',
      'upstream-answer.gen.ts',
      'upstream-credentials.gen.ts',
      'upstream-request.gen.ts',
      'upstream-spec.gen.ts',
      'upstream-wire.gen.ts',
      'upstream.gen.ts',
    ]);
    expect(runtimeFiles.get('stdio-core')).toEqual([
      'call.gen.ts',
      'handler.gen.ts',
      'hooks.gen.ts',
      'legacy.gen.ts',
      'lifecycle.gen.ts',
      'log.gen.ts',
      'params.gen.ts',
      'register.gen.ts',
      'spec.gen.ts',
      'start.gen.ts',
      'startup.gen.ts',
      'stdio.gen.ts',
      'testing.gen.ts',
    ]);
  });
});
