/**
 * config: resolves command-line flags and defaults into one frozen object,
 * so no other module writes `?? default`.
 */
import path from 'node:path';
import { manifestFile } from '../model/layout.js';
import { shellWord } from '../util/shell-word.js';

/** What `mcp-gen generate` does with the files it plans. */
export type WriteMode = 'write' | 'check' | 'dry-run';

/** Every option of a generate run, defaults filled in. */
export interface ResolvedOptions {
  readonly manifest: string;
  /** Absolute output folder (the project root). */
  readonly outDir: string;
  /** The manifest path relative to the output folder, forward slashes. */
  readonly manifestFromOut: string;
  /** The command that regenerates the project, run from the output folder. */
  readonly regenerateCommand: string;
  readonly mode: WriteMode;
  readonly strict: boolean;
  /** The mcp-gen command a hint about an unreadable manifest names, when not `generate` (e.g. `dev`). */
  readonly command?: string;
  /** How a created package.json depends on mcp-gen, when not `^version` (load/origin.ts decides it). */
  readonly mcpGenDependency?: string;
  /** Packages a created package.json lists besides mcp-gen's own (set by `init` from its example, e.g. `pg`). */
  readonly starterDependencies?: {
    readonly dependencies: Readonly<Record<string, string>>;
    readonly devDependencies: Readonly<Record<string, string>>;
  };
}

/** Flags as the CLI receives them. */
export interface GenerateFlags {
  readonly manifest?: string;
  readonly out?: string;
  readonly check?: boolean;
  readonly dryRun?: boolean;
  readonly strict?: boolean;
  readonly command?: string;
}

/** Fills in defaults: manifest `mcp.yaml`, output next to the manifest, mode `write`. */
export function resolveOptions(flags: GenerateFlags, cwd: string): ResolvedOptions {
  const manifest = flags.manifest ?? manifestFile;
  const manifestAbsolute = path.resolve(cwd, manifest);
  const outDir = flags.out === undefined ? path.dirname(manifestAbsolute) : path.resolve(cwd, flags.out);
  const manifestFromOut = path.relative(outDir, manifestAbsolute).split(path.sep).join('/');
  const outFlag = path.dirname(manifestAbsolute) === outDir ? '' : ' --out .';
  const mode: WriteMode = flags.check === true ? 'check' : flags.dryRun === true ? 'dry-run' : 'write';
  return Object.freeze({
    manifest,
    outDir,
    manifestFromOut,
    // package.json's `generate` script and every banner show it to a shell: a path is one word, whatever it holds.
    regenerateCommand: `npx mcp-gen generate ${shellWord(manifestFromOut)}${outFlag}`,
    mode,
    strict: flags.strict === true,
    ...(flags.command === undefined ? {} : { command: flags.command }),
  });
}
