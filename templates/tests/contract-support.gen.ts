/**
 * Helpers of the contract tests: secrets for the server under test, sample
 * arguments with freshly minted handles, whether a handler is still the
 * generated stub (then the tests expect exactly its "not implemented" error),
 * and whether this run may call tools that change data.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { registry } from '../src/generated/registry.gen.js';
import { handleIds, handlesModule, samples } from './contract-plan.gen.js';

const handleKey = 'contract-test-handle-key-0123456789abcdef';
const stateKey = 'contract-test-state-key-0123456789abcdef';
/** A bearer token holding every scope, and one holding none. */
export const fullToken = 'contract-full-token-0123456789abcdef';
export const emptyToken = 'contract-empty-token-0123456789abcdef';

/**
 * Whether this run calls the handlers of tools that are not read-only: only when `MCP_GEN_TEST_WRITES=1` says so,
 * because the server under test talks to whatever backend the environment names.
 */
export const writesAllowed = process.env.MCP_GEN_TEST_WRITES === '1';
/** Why a test that would change data is skipped. */
export const writesSkipped = 'changes data; set MCP_GEN_TEST_WRITES=1 against a test backend to run it';

/**
 * The environment the server under test starts with: the test's own (the handlers' settings), fixed keys, tokens
 * for bearer auth, and `MCP_GEN_TEST_MODE=1`, which `setup` sees as `tools.mode === 'test'` (a throwaway backend).
 */
export function serverEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MCP_GEN_TEST_MODE: '1',
    [registry.secrets.handleKeyEnv]: handleKey,
    [registry.secrets.requestStateKeyEnv]: stateKey,
  };
  if (registry.auth.type === 'bearer') {
    env[registry.auth.tokensEnv] =
      `${fullToken}=contract:${registry.auth.scopes.map((s) => s.name).join(',')};${emptyToken}=nobody:`;
  }
  return env;
}

/** A token for authenticated HTTP requests: ours for bearer, `CONTRACT_TEST_TOKEN` for OAuth, none without auth. */
export function authToken(): string | null | undefined {
  if (registry.auth.type === 'none') return null;
  if (registry.auth.type === 'bearer') return fullToken;
  return process.env.CONTRACT_TEST_TOKEN;
}

// contract-plan.gen.ts names handles.gen.ts only in servers that contain it.
const codec = handlesModule === null ? null : new (await handlesModule()).HandleCodec(Buffer.from(handleKey, 'utf8'));

/** A handle of `kind` for the stdio principal, valid for `ttlMs` (negative: already expired); id: its `exampleId`. */
export function mintHandle(kind: string, id = handleIds[kind] ?? 'contract-test', ttlMs = 60_000): string {
  if (codec === null) throw new Error('this server declares no handle kinds');
  return codec.issue(kind, id, 'anonymous', ttlMs);
}

/** Replaces every `{ "$mintHandle": kind }` marker in sample arguments with a real handle. */
export function withHandles(value: unknown, mint: (kind: string) => string = (kind) => mintHandle(kind)): unknown {
  if (Array.isArray(value)) return value.map((v) => withHandles(v, mint));
  if (value !== null && typeof value === 'object') {
    const marker = (value as Record<string, unknown>).$mintHandle;
    if (typeof marker === 'string') return mint(marker);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withHandles(v, mint)]));
  }
  return value;
}

/** Sample arguments of `tool`, with handles minted. */
export function sampleArguments(tool: string): Record<string, unknown> {
  return withHandles(samples[tool] ?? {}) as Record<string, unknown>;
}

/**
 * Arguments of `tool` that differ from `sampleArguments` in one place (a handle
 * minted for another id, or one string), or null when there is nothing to change.
 */
export function changedArguments(tool: string): Record<string, unknown> | null {
  const sample = samples[tool] ?? {};
  const text = JSON.stringify(sample);
  if (text.includes('"$mintHandle"'))
    return withHandles(sample, (kind) => mintHandle(kind, 'changed')) as Record<string, unknown>;
  const changed = text.replace(/"example"/, '"changed"');
  return changed === text ? null : (withHandles(JSON.parse(changed)) as Record<string, unknown>);
}

/** True while the handler file still throws the generated "not implemented" error. */
export function isStub(kind: 'tool' | 'resource' | 'prompt', name: string): boolean {
  const file = fileURLToPath(new URL(`../../src/handlers/${kind}s/${name}.ts`, import.meta.url));
  return existsSync(file) && readFileSync(file, 'utf8').includes(`notImplemented('${kind}', '${name}')`);
}

/** The text a stub answers with. */
export function stubText(kind: 'tool' | 'resource' | 'prompt', name: string): string {
  return `The ${kind} "${name}" is not implemented yet.`;
}

/** The first text block of a result. */
export function textOf(result: Record<string, any>): string {
  const block = (result.content as { type: string; text?: string }[] | undefined)?.find((c) => c.type === 'text');
  return block?.text ?? '';
}
