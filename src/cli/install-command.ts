/**
 * `mcp-gen install <host>`: writes the project's server (`node
 * <project>/dist/server.mjs` and its environment) into a host's configuration,
 * keeping everything else in the file; a second run with the same answers
 * changes nothing. `--print` shows the entry and writes nothing.
 */
import path from 'node:path';
import { formatReport, type Paint } from '../diagnostics/index.js';
import { hostConfigPath, hostIds, hosts, type HostId } from '../live/hosts.js';
import { envValues, InstallError, installEntry, mergeEntry, printedEntry } from '../live/install.js';
import { builtServerEntry, readHostConfig } from '../load/index.js';
import { environmentVariables } from '../model/environment.js';
import { runPipeline } from '../pipeline.js';
import { causeOf, writeHostConfig } from '../write/index.js';
import type { CliIo } from './io.js';
import { askQuestions, PromptCancelled, type Question } from './prompt.js';

/** Flags of `mcp-gen install` as commander gives them. */
export interface InstallFlags {
  readonly manifest: string;
  readonly env: readonly string[];
  readonly print: boolean;
  readonly configPath?: string;
  readonly file?: string;
  readonly global: boolean;
}

export async function runInstall(
  host: string,
  flags: InstallFlags,
  io: CliIo,
  paint: Paint,
  interactive: boolean,
): Promise<number> {
  if (!(hostIds as readonly string[]).includes(host)) {
    io.stderr(`mcp-gen: error: unknown host "${host}"; hosts: ${hostIds.join(', ')}\n`);
    return 1;
  }
  const chosen = hosts[host as HostId];
  const compiled = await runPipeline(
    { manifest: flags.manifest, cwd: io.cwd, command: 'install <host> --manifest' },
    'normalize',
  );
  if (compiled.model === null) {
    io.stderr(formatReport(compiled.diagnostics, paint));
    return 1;
  }
  const model = compiled.model;
  const project = path.resolve(io.cwd, path.dirname(flags.manifest));
  const home = io.env.HOME ?? io.env.USERPROFILE ?? project;
  const place = { project, home, platform: process.platform, env: io.env, global: flags.global };
  const file = flags.configPath ?? flags.file ?? hostConfigPath(chosen.id, place);
  if (file === null) {
    io.stderr('mcp-gen: error: install json needs --file PATH, the mcpServers JSON file to write\n');
    return 1;
  }
  const target = path.resolve(io.cwd, file);
  try {
    const variables = environmentVariables(model);
    const values = envValues(flags.env, variables);
    // A required setting that is not a secret is asked for (on a terminal) or must come with --env.
    const missing = variables.filter((v) => v.origin === 'config' && v.required && !v.secret && !(v.name in values));
    if (missing.length > 0 && !interactive)
      throw new InstallError(
        `${missing.map((v) => v.name).join(', ')} ${missing.length === 1 ? 'is' : 'are'} required; ` +
          `pass --env ${missing[0]?.name}=VALUE`,
      );
    const questions: Question[] = missing.map((v) => ({
      key: v.name,
      prompt: `${v.name} (${v.description}): `,
      fallback: '',
      check: (answer: string) => (answer === '' ? `${v.name} is required` : null),
    }));
    Object.assign(values, await askQuestions(questions, process.stdin, process.stderr));
    const entry = path.join(project, 'dist', 'server.mjs');
    const server = { name: model.server.name, entry };
    if (flags.print) {
      // A secret given with --env goes into the file, never onto the screen.
      const shown = Object.fromEntries(
        Object.entries(values).map(([k, v]) => [k, variables.find((x) => x.name === k)?.secret ? '<from --env>' : v]),
      );
      io.stdout(printedEntry(chosen, installEntry(chosen, server, variables, shown)));
      io.stderr(`(not written; without --print this goes into ${target})\n`);
      return 0;
    }
    const install = installEntry(chosen, server, variables, values);
    const before = onDisk(target, () => readHostConfig(target));
    const after = mergeEntry(chosen, before, install, target);
    if (after === before) {
      io.stdout(`${chosen.title}: ${target} already has "${install.name}" as it would be written; nothing changed\n`);
      return 0;
    }
    const { backup } = onDisk(target, () => writeHostConfig(target, after));
    io.stdout(
      `${chosen.title}: wrote "${install.name}" into ${target}` +
        `${backup === null ? '' : ` (the previous file is ${backup})`}\n`,
    );
    for (const name of install.placeholders)
      io.stdout(`  set ${name} in that file by hand (it holds a placeholder), or run again with --env ${name}=...\n`);
    if (builtServerEntry(flags.manifest, io.cwd) === null)
      io.stdout(`  build the server (npm run build) before ${chosen.title} starts it: ${entry}\n`);
    for (const input of install.inputs) io.stdout(`  VS Code asks for ${input.id} when it starts the server\n`);
    return 0;
  } catch (error) {
    if (error instanceof InstallError) {
      io.stderr(`mcp-gen: error: ${error.message}\n`);
      return 1;
    }
    if (error instanceof PromptCancelled) return 130;
    throw error;
  }
}

/** A host file the disk refuses (a folder at --config-path, a read-only folder) is the user's to fix, not a bug. */
function onDisk<T>(file: string, act: () => T): T {
  try {
    return act();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === undefined) throw error;
    throw new InstallError(`${file}: ${causeOf(error)}; the file is unchanged`);
  }
}
