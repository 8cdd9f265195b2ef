/**
 * The pipeline, as docs/architecture.md lists it:
 *   load -> validate -> normalize -> plan -> emit -> write
 * Each stage lives in its own folder and hands plain readonly data to the next.
 * This file only sequences them; it holds no logic of its own.
 */
import type { Diagnostic } from './diagnostics/index.js';
import { loadManifest, type LoadedManifest } from './load/index.js';
import type { ServerModel } from './model/types.js';
import { normalizeManifest } from './normalize/index.js';
import { validateManifest } from './validate/index.js';

/** The result of the front half: diagnostics always, a model only when there is no error. */
export interface CompileResult {
  /** The manifest path as diagnostics show it. */
  readonly file: string;
  readonly diagnostics: readonly Diagnostic[];
  readonly manifest: LoadedManifest | null;
  readonly model: ServerModel | null;
}

/** load -> validate -> normalize. Stops before normalize when any error was found. */
export function compileManifest(manifestPath: string, cwd: string = process.cwd()): CompileResult {
  const loaded = loadManifest(manifestPath, cwd);
  if (!loaded.ok) {
    return { file: loaded.diagnostics[0]?.file ?? manifestPath, diagnostics: loaded.diagnostics, manifest: null, model: null };
  }
  const { manifest } = loaded;
  const diagnostics = validateManifest(manifest);
  const failed = diagnostics.some((d) => d.severity === 'error');
  return { file: manifest.file, diagnostics, manifest, model: failed ? null : normalizeManifest(manifest.data) };
}
