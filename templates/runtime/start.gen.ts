/**
 * Process entry: reads the command line, loads keys, and starts the chosen
 * transport. `src/main.ts` calls `startServer` and nothing else.
 */
import type { McpRequestContext, McpServerFactory } from '@modelcontextprotocol/server';
import type { Approvals } from './approval.gen.js';
import type { HttpAuth, JwtVerifierFactory } from './auth.gen.js';
import { StartupError } from './errors.gen.js';
import type { HandleCodec } from './handles.gen.js';
import { principalOf, type CallEnv } from './invoke.gen.js';
import { buildServer, type CompiledSchemas, type HandlerSet } from './register.gen.js';
import type { RegistrySpec } from './spec.gen.js';
import { startStdio } from './stdio.gen.js';

const loopback = /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\])$/;

/** Everything server.gen.ts knows about this server. */
export interface ServerDefinition {
  readonly registry: RegistrySpec;
  readonly schemas: CompiledSchemas;
  readonly handlers: HandlerSet;
}

/** Writes one diagnostic line to stderr: stdout belongs to the protocol on stdio. */
export function logToStderr(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** A factory that builds a fresh McpServer per request (HTTP) or connection (stdio). */
export function createFactory(definition: ServerDefinition, env: CallEnv): McpServerFactory {
  return (ctx) => buildServer(definition.registry, definition.schemas, definition.handlers, env, calledTool(definition.registry, ctx));
}

/**
 * The tool a modern HTTP `tools/call` request names, or undefined for any
 * other request. The SDK checks the Mcp-Method and Mcp-Name headers against
 * the body before it calls the factory, so the server built for that request
 * needs only that tool: registering each further tool costs about 8 µs on
 * every request. A name that is not plainly one of ours (absent, encoded,
 * unknown) gets every tool, so the SDK answers exactly as it would otherwise.
 */
export function calledTool(registry: RegistrySpec, ctx: McpRequestContext | undefined): string | undefined {
  const headers = ctx?.era === 'modern' ? ctx.requestInfo?.headers : undefined;
  if (headers === undefined || headers.get('mcp-method')?.trim() !== 'tools/call') return undefined;
  const name = headers.get('mcp-name')?.trim();
  return registry.tools.some((tool) => tool.name === name) ? name : undefined;
}

/**
 * The HTTP authorization the manifest asks for, or null for `auth: none`.
 * oauth.gen.ts (and with it jose) is imported only here and only for OAuth:
 * other projects do not contain that file, so the specifier is a variable the
 * type checker does not resolve, and the module's type is declared in auth.gen.ts.
 */
async function httpAuth(registry: RegistrySpec, path: string, environment: NodeJS.ProcessEnv): Promise<HttpAuth | null> {
  const { auth } = registry;
  const { createHttpAuth, parseBearerTokens, staticTokenVerifier } = await import('./auth.gen.js');
  const scopes = auth.scopes.map((scope) => scope.name);
  if (auth.type === 'none') return null;
  if (auth.type === 'bearer') {
    const verifier = staticTokenVerifier(parseBearerTokens(environment[auth.tokensEnv], auth.tokensEnv));
    return createHttpAuth(verifier, { path, resource: auth.resource, authorizationServers: [], scopes }, logToStderr);
  }
  const specifier = './oauth.gen.js';
  const { createJwtVerifier } = (await import(specifier)) as { createJwtVerifier: JwtVerifierFactory };
  const verifier = createJwtVerifier({ issuer: auth.issuer, jwksUri: auth.jwksUri, resource: auth.resource }, logToStderr);
  return createHttpAuth(verifier, { path, resource: auth.resource, authorizationServers: [auth.issuer], scopes }, logToStderr);
}

/** The command-line options a server understands. */
export interface StartOptions {
  readonly transport?: string;
  readonly host?: string;
  readonly port?: string;
}

const optionNames: readonly (keyof StartOptions)[] = ['transport', 'host', 'port'];

/**
 * Reads `--name value` and `--name=value` for the three options; anything else
 * is a StartupError. Hand-written rather than `util.parseArgs` because loading
 * that takes about 2 ms, and a stdio server is started for every session.
 */
export function readOptions(argv: readonly string[]): StartOptions {
  const values: Partial<Record<keyof StartOptions, string>> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const eq = arg.indexOf('=');
    const name = (arg.startsWith('--') ? arg.slice(2, eq < 0 ? undefined : eq) : '') as keyof StartOptions;
    if (!optionNames.includes(name)) throw new StartupError(`unknown argument "${arg}"; expected --transport, --host or --port`);
    if (values[name] !== undefined) throw new StartupError(`--${name} is given twice`);
    const value = eq < 0 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || value === '' || (eq < 0 && value.startsWith('--'))) throw new StartupError(`--${name} needs a value`);
    values[name] = value;
  }
  return values;
}

/** The state-handle codec, keyed from the environment; only for registries with handle kinds. */
async function handleCodec(registry: RegistrySpec, environment: NodeJS.ProcessEnv, local: boolean): Promise<HandleCodec> {
  const [{ loadKey }, { HandleCodec }] = await Promise.all([import('./keys.gen.js'), import('./handles.gen.js')]);
  return new HandleCodec(loadKey(registry.secrets.handleKeyEnv, environment, local, logToStderr));
}

/** The approval service, keyed from the environment; only when some tool asks for approval. */
async function approvalService(registry: RegistrySpec, environment: NodeJS.ProcessEnv, local: boolean): Promise<Approvals> {
  const [{ loadKey }, { Approvals }] = await Promise.all([import('./keys.gen.js'), import('./approval.gen.js')]);
  return new Approvals(loadKey(registry.secrets.requestStateKeyEnv, environment, local, logToStderr), (ctx) => principalOf(ctx).id);
}

/** Starts the server as the command line asks: `--transport stdio|http`, `--host`, `--port`. */
export async function startServer(definition: ServerDefinition, argv: readonly string[], environment: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { registry } = definition;
  const values = readOptions(argv);
  const transport = values.transport ?? (registry.transports.stdio || registry.transports.http === null ? 'stdio' : 'http');
  if (transport !== 'stdio' && transport !== 'http') throw new StartupError(`--transport must be "stdio" or "http", got "${transport}"`);
  // stdio is always available (only the process that starts the server can talk to it); HTTP only when declared.
  if (transport === 'http' && registry.transports.http === null) {
    throw new StartupError('this server declares no HTTP transport; add transports.http to the manifest and regenerate');
  }
  const http = registry.transports.http ?? { host: '127.0.0.1', port: 3000, path: '/mcp', allowedOrigins: [] };
  const host = values.host ?? http.host;
  const port = values.port === undefined ? http.port : /^\d{1,5}$/.test(values.port) ? Number(values.port) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new StartupError(`--port must be a port number, got "${values.port}"`);
  const local = transport === 'stdio' || loopback.test(host);
  if (!local && registry.auth.type === 'none') {
    throw new StartupError(`refusing to listen on non-loopback host "${host}" without authorization; set auth in the manifest or bind to 127.0.0.1`);
  }

  // Keys, handles, approvals, HTTP and authorization are loaded only when used: a server that signs
  // nothing never loads node:crypto (about 5 ms at start), and a stdio server never loads node:http.
  const handles = registry.handles.length > 0 ? await handleCodec(registry, environment, local) : null;
  const approvals = registry.tools.some((tool) => tool.approval === 'confirm') ? await approvalService(registry, environment, local) : null;
  const env: CallEnv = { registry, handles, approvals, log: logToStderr };
  const factory = createFactory(definition, env);
  if (transport === 'stdio') {
    startStdio(factory, registry.protocol.versions, registry.protocol.legacy, logToStderr);
    return;
  }
  const auth = await httpAuth(registry, http.path, environment);
  const { startHttp } = await import('./http.gen.js');
  const server = await startHttp(factory, { ...http, host, port, legacy: registry.protocol.legacy }, auth, logToStderr);
  const address = server.address();
  const shown = typeof address === 'object' && address !== null ? `${host}:${address.port}` : `${host}:${port}`;
  logToStderr(`${registry.server.name} listening on http://${shown}${http.path}`);
}

/** Runs `startServer` and turns a StartupError into one line on stderr and exit code 1. */
export function main(definition: ServerDefinition, argv: readonly string[] = process.argv.slice(2)): void {
  startServer(definition, argv).catch((error: unknown) => {
    if (error instanceof StartupError) {
      logToStderr(`${definition.registry.server.name}: ${error.message}`);
    } else {
      logToStderr(`${definition.registry.server.name}: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
    process.exitCode = 1;
  });
}
