import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Config, Services, SetupTools } from './generated/index.gen.js';
import { useScope } from './lib/scope.js';

/** What the manifest's examples read: the scope of the contract tests when FILES_ROOT is unset. */
const fixtures: Readonly<Record<string, string>> = { 'hello.txt': 'hello\n', 'docs/guide.md': '# Guide\n' };

/**
 * Runs once, before the server answers its first request. A server started by a host reads FILES_ROOT (unset,
 * every call says how to set it). Under the contract tests (`npm test`, `tools.mode === 'test'`) without
 * FILES_ROOT, the scope is a throwaway directory holding the files the examples read, removed at shutdown: the
 * tests pass right after `init` and never see a directory of yours.
 */
export async function setup(config: Config, tools: SetupTools) {
  if (config.FILES_ROOT !== undefined || tools.mode !== 'test') return { throwaway: null };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'files-contract-'));
  for (const [name, text] of Object.entries(fixtures)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  useScope(dir);
  tools.log(`files: FILES_ROOT is unset, so the contract tests use the throwaway scope ${dir}`);
  return { throwaway: dir };
}

/** Runs once at shutdown (stdin closed, SIGTERM, SIGINT), after the calls in flight. */
export async function teardown(services: Services): Promise<void> {
  if (services.throwaway !== null) await rm(services.throwaway, { recursive: true, force: true });
}
