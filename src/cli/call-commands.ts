/**
 * `mcp-gen call`, `read` and `prompt`: one request against the project's built
 * server (`node dist/server.mjs` over stdio, with the caller's environment) or
 * a Streamable HTTP URL, the result printed as JSON on stdout. Exit 1 for a
 * tool's error result and every user error (no build, a bad argument, a server
 * that refuses the request or cannot be reached); a bug escapes as exit 2.
 */
import path from 'node:path';
import { fixedAnswerer, terminalAnswerer } from '../live/answer.js';
import { ArgumentError } from '../live/arguments.js';
import { type AnswererFor, CallError, type CallOutcome, callTool, getPrompt, readResource } from '../live/call.js';
import { LiveError } from '../live/index.js';
import type { SessionTarget } from '../live/session.js';
import { builtServerEntry } from '../load/index.js';
import type { CliIo } from './io.js';

/** Options every one of the three commands takes. */
export interface TargetFlags {
  readonly manifest: string;
  readonly url?: string;
  readonly header: readonly string[];
  readonly yes: boolean;
}

function targetOf(flags: TargetFlags, io: CliIo): SessionTarget {
  if (flags.url !== undefined) {
    const headers: Record<string, string> = {};
    for (const header of flags.header) {
      const at = header.indexOf(':');
      if (at <= 0) throw new CallError(`--header ${JSON.stringify(header)}: expected "Name: value"`);
      headers[header.slice(0, at).trim()] = header.slice(at + 1).trim();
    }
    if (!URL.canParse(flags.url)) throw new CallError(`--url ${JSON.stringify(flags.url)} is not a URL`);
    return { kind: 'url', url: flags.url, headers };
  }
  const entry = builtServerEntry(flags.manifest, io.cwd);
  if (entry === null)
    throw new CallError(
      `${path.join(path.dirname(flags.manifest), 'dist', 'server.mjs')} does not exist; build the server ` +
        'first (npm run build) or pass --url http://127.0.0.1:<port>/mcp',
    );
  return { kind: 'command', command: process.execPath, args: [entry], env: io.env };
}

/** The person at the terminal when standard input is one; otherwise decline, or accept under --yes. */
function answererFor(flags: TargetFlags, io: CliIo): AnswererFor {
  return (asking) =>
    process.stdin.isTTY === true
      ? terminalAnswerer(asking, process.stdin, process.stderr)
      : fixedAnswerer(flags.yes, asking, io.stderr);
}

/** Runs one request; prints its result and maps every user error to exit 1. */
async function run(
  flags: TargetFlags,
  io: CliIo,
  request: (target: SessionTarget, answerer: AnswererFor) => Promise<CallOutcome>,
): Promise<number> {
  try {
    const { result, failed } = await request(targetOf(flags, io), answererFor(flags, io));
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return failed ? 1 : 0;
  } catch (error) {
    if (error instanceof CallError || error instanceof ArgumentError || error instanceof LiveError) {
      io.stderr(`mcp-gen: error: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/** `mcp-gen call <tool>`: arguments from `--json` and `--arg`, read by the tool's input schema. */
export function runCall(
  tool: string,
  options: { readonly arg: readonly string[]; readonly json?: string },
  flags: TargetFlags,
  io: CliIo,
): Promise<number> {
  const input = { pairs: options.arg, ...(options.json === undefined ? {} : { json: options.json }) };
  return run(flags, io, (target, answerer) => callTool(target, tool, input, answerer));
}

/** `mcp-gen read <uri>`. */
export function runRead(uri: string, flags: TargetFlags, io: CliIo): Promise<number> {
  return run(flags, io, (target, answerer) => readResource(target, uri, answerer));
}

/** `mcp-gen prompt <name>`: `--arg key=value` pairs, as text. */
export function runPrompt(
  name: string,
  options: { readonly arg: readonly string[] },
  flags: TargetFlags,
  io: CliIo,
): Promise<number> {
  return run(flags, io, (target, answerer) => getPrompt(target, name, options.arg, answerer));
}
