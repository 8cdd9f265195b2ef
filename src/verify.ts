/**
 * `mcp-gen verify`: compile the manifest (pipeline.ts), read the running
 * server (live/) and list every drift between them (verify/).
 */
import type { Diagnostic } from './diagnostics/index.js';
import { readLiveServer, type LiveTarget } from './live/index.js';
import { runPipeline } from './pipeline.js';
import { verifyServer, type VerifyResult } from './verify/index.js';

/** Diagnostics of the manifest, and the verdict when it compiled. */
export interface VerifyOutcome {
  readonly diagnostics: readonly Diagnostic[];
  readonly result: VerifyResult | null;
}

/** Verifies the server at `target` against the manifest at `manifestPath`. */
export async function verifyAgainstManifest(
  manifestPath: string,
  target: LiveTarget,
  cwd: string,
): Promise<VerifyOutcome> {
  const compiled = await runPipeline({ manifest: manifestPath, cwd, command: 'verify --manifest' }, 'normalize');
  if (compiled.model === null) return { diagnostics: compiled.diagnostics, result: null };
  const live = await readLiveServer(target);
  return { diagnostics: compiled.diagnostics, result: verifyServer(compiled.model, live) };
}
