import { createInterface } from 'node:readline/promises';
import { formatReport, type Paint } from '../diagnostics/index.js';
import { initProject, serverNameFor, type InitOptions } from '../init.js';
import { initExamples, type InitExample } from '../load/index.js';
import type { CliIo } from './index.js';
import { packageVersion } from './version.js';

/** Flags of `mcp-gen init` as commander gives them. */
export interface InitFlags {
  readonly dir: string;
  readonly name?: string;
  readonly example?: string;
  readonly transport?: string;
  readonly legacy?: string;
  readonly yes: boolean;
  readonly force: boolean;
}

const transports = ['stdio', 'http', 'both'] as const;
const legacyModes = ['serve', 'reject'] as const;

async function ask(flags: InitFlags): Promise<InitFlags> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const name = flags.name ?? ((await rl.question(`server name (${serverNameFor(flags.dir === '.' ? process.cwd().split('/').pop() ?? '' : flags.dir)}): `)).trim() || undefined);
    const example = flags.example ?? ((await rl.question(`start from (${initExamples.join(', ')}) [blank]: `)).trim() || 'blank');
    const transport = flags.transport ?? ((await rl.question('transport (stdio, http, both) [stdio]: ')).trim() || 'stdio');
    const legacy = flags.legacy ?? ((await rl.question('2025-11-25 hosts (serve: also answer desktop and IDE assistants on the v1 SDK; reject: 2026-07-28 clients only) [serve]: ')).trim() || undefined);
    return { ...flags, ...(name === undefined ? {} : { name }), example, transport, ...(legacy === undefined ? {} : { legacy }) };
  } finally {
    rl.close();
  }
}

/** `mcp-gen init`: asks on a terminal (never with --yes), creates the project, prints the next commands. */
export async function runInit(given: InitFlags, io: CliIo, paint: Paint, interactive: boolean): Promise<number> {
  const flags = interactive && !given.yes ? await ask(given) : given;
  const example = flags.example ?? 'blank';
  if (!(initExamples as readonly string[]).includes(example)) {
    io.stderr(`mcp-gen: error: --example must be one of ${initExamples.join(', ')}, got "${example}"\n`);
    return 1;
  }
  if (flags.transport !== undefined && !(transports as readonly string[]).includes(flags.transport)) {
    io.stderr(`mcp-gen: error: --transport must be one of ${transports.join(', ')}, got "${flags.transport}"\n`);
    return 1;
  }
  if (flags.legacy !== undefined && !(legacyModes as readonly string[]).includes(flags.legacy)) {
    io.stderr(`mcp-gen: error: --legacy must be one of ${legacyModes.join(', ')}, got "${flags.legacy}"\n`);
    return 1;
  }
  if (flags.name !== undefined && !/^[a-z][a-z0-9-]*$/.test(flags.name)) {
    io.stderr(`mcp-gen: error: --name must match ^[a-z][a-z0-9-]*$, got "${flags.name}"; try "${serverNameFor(flags.name)}"\n`);
    return 1;
  }
  const options: InitOptions = { dir: flags.dir, name: flags.name, example: example as InitExample, transport: flags.transport as InitOptions['transport'], legacy: flags.legacy as InitOptions['legacy'], force: flags.force };
  const result = await initProject(options, io.cwd, packageVersion());
  if (!result.ok) {
    io.stderr(`mcp-gen: error: ${result.error}\n`);
    return 1;
  }
  if (result.diagnostics.length > 0) io.stderr(formatReport(result.diagnostics, paint));
  const created = result.actions.filter((a) => a.kind === 'create').length;
  const kept = result.actions.filter((a) => a.kind === 'keep').length;
  io.stdout(`created ${created} files${kept > 0 ? `, kept ${kept} existing` : ''} from "${example}"\n\nnext:\n${result.next.map((c) => `  ${c}`).join('\n')}\n`);
  return result.diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
}
