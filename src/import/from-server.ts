import type { LiveServer, WireItem } from '../live/index.js';
import { isEffectivelyDestructive } from '../model/defaults.js';
import { isRecord, stringOr } from '../util/guards.js';
import { importedTextNote, untrustedDraftNotice, type Draft, type DraftNote } from './draft.js';
import { isSemver, NameAllocator, quote, serverName } from './names.js';
import { splitListedMembers } from '../model/listed-members.js';
import { wireIcons, wireResourceMetadata } from './server-metadata.js';

const hintKeys = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
/** Tool fields the manifest carries; anything else on the wire is noted as not imported. */
const toolFields = new Set(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'icons']);
const draft2020 = 'https://json-schema.org/draft/2020-12/schema';
const mimeTypePattern = /^[a-z0-9.+-]+\/[a-zA-Z0-9.+-]+$/;
/** Why a wire name was not kept: names are kept whenever the manifest can hold them. */
const notKept =
  'is not a name the manifest accepts (1 to 128 characters of A-Z a-z 0-9 _ - .), or clashes with an earlier one';

/**
 * How the server was reached: a description for the header,
 * the transport, and the names (never values) of headers sent.
 */
export interface DraftSource {
  readonly description: string;
  readonly transport: 'stdio' | 'http';
  readonly headerNames: readonly string[];
}

/**
 * A manifest draft of a running server: tools with their schemas and hints,
 * resources, templates and prompts as listed. What the wire cannot tell
 * (approval, scopes, handles, auth, transports, prompt text) is left as TODO
 * notes with the reason.
 */
export function draftFromServer(live: LiveServer, source: DraftSource): Draft {
  const notes: DraftNote[] = [];
  const flags: string[] = [];
  const note = (path: readonly string[], text: string) => notes.push({ path, text });
  const untrusted = untrustedDraftNotice(origin);
  const info = live.serverInfo;
  const wireName = stringOr(info.name) ?? 'imported-server';
  const name = serverName(wireName);
  const wireVersion = stringOr(info.version) ?? '';
  const server: Record<string, unknown> = { name, version: isSemver(wireVersion) ? wireVersion : '0.1.0' };
  // A version that is not semantic is kept as sent, so that verify compares the text the server reports.
  if (!isSemver(wireVersion) && wireVersion !== '') server.wireVersion = wireVersion.slice(0, 128);
  for (const key of ['title', 'description'] as const) if (nonEmpty(info[key])) server[key] = info[key];
  if (live.instructions !== null && live.instructions !== '') server.instructions = live.instructions;
  const serverIcons = wireIcons(info);
  if (serverIcons !== undefined) server.icons = serverIcons;

  note(
    [],
    'Draft imported by mcp-gen from a running MCP server (protocol ' +
      `${live.protocolVersion}, ${live.era} era): ${quote(source.description)}`,
  );
  note([], untrusted.note);
  note([], 'Review every TODO, then run "mcp-gen check" and "mcp-gen generate".');
  note(
    [],
    source.transport === 'http'
      ? 'TODO transports: the server was read over Streamable HTTP, so the draft serves HTTP on 127.0.0.1; ' +
          'the wire does not say whether hosts also start it as a process (add transports.stdio: {}).'
      : 'TODO transports: the server was read over stdio, the default; the wire ' +
          'does not say whether it is also offered over HTTP (add transports.http).',
  );
  const authorization = source.headerNames.filter((h) => h.toLowerCase() === 'authorization').length > 0;
  note(
    [],
    authorization
      ? 'TODO auth: the server was read with an Authorization header, so callers sign in; ' +
          'declare auth (bearer or oauth) and auth.scopes, which the wire does not show.'
      : 'TODO auth: the wire does not say who may call the server or with which ' +
          'scopes; add auth (bearer or oauth) and auth.scopes if callers must sign in.',
  );
  note(
    [],
    'TODO handles: a string argument that carries state between calls (an id a tool ' +
      'returned) can be declared as a state handle ($handle), which the wire cannot show.',
  );
  if (name !== wireName)
    note(['server', 'name'], `server name ${quote(wireName)} on the wire is not a manifest name; renamed`);
  if (!isSemver(wireVersion))
    note(
      ['server', 'version'],
      `TODO version: the server reports ${quote(wireVersion)}, which is not a semantic version; ` +
        'it is kept as wireVersion (what serverInfo sends), and version is the package version',
    );

  for (const marked of importedTextNote(server, ['server'], origin)) note(marked.path, marked.text);
  const data: Record<string, unknown> = { mcpGen: 1, server };
  if (source.transport === 'http') data.transports = { http: {} };
  const tools = importTools(live.tools, note, flags);
  if (Object.keys(tools).length > 0) data.tools = tools;
  const listed = splitListedMembers(live.resources, live.resourceTemplates);
  const resources = importResources([...listed.fixed, ...live.resourceTemplates], listed.members, note);
  if (Object.keys(resources).length > 0) data.resources = resources;
  const prompts = importPrompts(live.prompts, note);
  if (Object.keys(prompts).length > 0) data.prompts = prompts;
  if (notes.some((n) => n.text.startsWith('imported text'))) flags.push(untrusted.flag);
  return { data, notes, flags };
}

type Note = (path: readonly string[], text: string) => void;

/** Who wrote the draft's titles and descriptions, as its notes name them. */
const origin = 'the server';

function importTools(list: readonly WireItem[], note: Note, flags: string[]): Record<string, unknown> {
  const names = new NameAllocator();
  const tools: Record<string, unknown> = {};
  for (const wire of list) {
    const wireName = stringOr(wire.name) ?? '';
    const name = names.keep(wireName, 'tool');
    const annotations = isRecord(wire.annotations) ? wire.annotations : {};
    const hints = Object.fromEntries(
      hintKeys.filter((k) => typeof annotations[k] === 'boolean').map((k) => [k, annotations[k]]),
    );
    const tool: Record<string, unknown> = {};
    if (nonEmpty(wire.title)) tool.title = wire.title;
    tool.description = nonEmpty(wire.description)
      ? wire.description
      : 'TODO: say what this tool does, when to use it and what it returns.';
    if (Object.keys(hints).length > 0) tool.annotations = hints;
    const icons = wireIcons(wire);
    if (icons !== undefined) tool.icons = icons;
    const at = ['tools', name];
    tool.input = isRecord(wire.inputSchema) ? toolSchema(wire.inputSchema, [...at, 'input'], note) : { type: 'object' };
    if (isRecord(wire.outputSchema)) tool.output = toolSchema(wire.outputSchema, [...at, 'output'], note);
    tools[name] = tool;
    const imported = { title: tool.title, description: nonEmpty(wire.description) ? wire.description : undefined };
    for (const marked of importedTextNote(imported, at, origin)) note(marked.path, marked.text);

    if (name !== wireName)
      note(
        at,
        `tool ${quote(wireName)} on the wire ${notKept}; renamed (a generated server will list it as "${name}")`,
      );
    if (!nonEmpty(wire.description)) flags.push(`tool "${name}" has no description`);
    // A read-only tool needs no approval; for the others the wire does not say who confirms.
    if (hints.readOnlyHint !== true) {
      note(
        [...at, 'input'],
        isEffectivelyDestructive(hints)
          ? 'TODO approval: the server marks this tool destructive (or does not say otherwise), so a generated ' +
              'server asks the user to confirm each call; write approval: none only if the host already confirms.'
          : 'TODO approval: the wire does not say whether a person must confirm ' +
              'calls; add approval: confirm if a call changes something that matters.',
      );
    }
    note(
      [...at, 'input'],
      'TODO scopes: the wire does not say which OAuth scopes a call needs; add scopes: [...] once auth is declared.',
    );
    const extra = Object.keys(wire)
      .filter((k) => !toolFields.has(k))
      .sort();
    const droppedHints = Object.keys(annotations)
      .filter((k) => !(hintKeys as readonly string[]).includes(k))
      .sort();
    if (extra.length > 0 || droppedHints.length > 0) {
      note(
        at,
        'not imported from the wire: ' +
          `${[...extra, ...droppedHints.map((k) => `annotations.${k}`)].map((k) => quote(k)).join(', ')}`,
      );
    }
  }
  return tools;
}

/** Tool schemas are JSON Schema 2020-12: a `$schema` naming another draft is dropped, and the note says so. */
function toolSchema(
  schema: Readonly<Record<string, unknown>>,
  at: readonly string[],
  note: Note,
): Record<string, unknown> {
  const copy = structuredClone(schema) as Record<string, unknown>;
  const { $schema, ...rest } = copy;
  if ($schema === undefined || $schema === draft2020) return copy;
  note(
    at,
    `the server's schema names ${quote(String($schema))}; tool schemas are JSON Schema ` +
      '2020-12, so $schema was left out (check keywords that changed, such as items)',
  );
  return rest;
}

function importResources(
  list: readonly WireItem[],
  members: ReadonlyMap<string, number>,
  note: Note,
): Record<string, unknown> {
  const names = new NameAllocator();
  const resources: Record<string, unknown> = {};
  for (const wire of list) {
    const wireName = stringOr(wire.name) ?? '';
    const name = names.keep(wireName, 'resource');
    const resource: Record<string, unknown> = {};
    if (typeof wire.uri === 'string') resource.uri = wire.uri;
    if (typeof wire.uriTemplate === 'string') resource.uriTemplate = wire.uriTemplate;
    if (nonEmpty(wire.title)) resource.title = wire.title;
    if (nonEmpty(wire.description)) resource.description = wire.description;
    if (typeof wire.mimeType === 'string' && mimeTypePattern.test(wire.mimeType)) resource.mimeType = wire.mimeType;
    Object.assign(resource, wireResourceMetadata(wire));
    const listedCount = typeof wire.uriTemplate === 'string' ? members.get(wire.uriTemplate) : undefined;
    if (listedCount !== undefined) resource.list = 'handler';
    resources[name] = resource;
    if (listedCount !== undefined)
      note(
        ['resources', name],
        `TODO list: resources/list named ${listedCount} URI(s) this template matches, so the draft lists its ` +
          'members with a handler (src/handlers/resource-lists/) instead of fixing them; declare any of them as a ' +
          'fixed resource if it is one',
      );
    for (const marked of importedTextNote(resource, ['resources', name], origin)) note(marked.path, marked.text);
    if (name !== wireName) note(['resources', name], `resource ${quote(wireName)} on the wire ${notKept}; renamed`);
    if (typeof wire.uriTemplate === 'string')
      note(
        ['resources', name],
        'TODO completions: the wire does not list the values completion/complete offers for the template variables',
      );
    if (typeof wire.mimeType === 'string' && !mimeTypePattern.test(wire.mimeType))
      note(['resources', name], `mimeType ${quote(wire.mimeType)} is not a media type the manifest accepts; left out`);
  }
  return resources;
}

function importPrompts(list: readonly WireItem[], note: Note): Record<string, unknown> {
  const names = new NameAllocator();
  const prompts: Record<string, unknown> = {};
  for (const wire of list) {
    const wireName = stringOr(wire.name) ?? '';
    const name = names.keep(wireName, 'prompt');
    const prompt: Record<string, unknown> = {};
    if (nonEmpty(wire.title)) prompt.title = wire.title;
    if (nonEmpty(wire.description)) prompt.description = wire.description;
    const icons = wireIcons(wire);
    if (icons !== undefined) prompt.icons = icons;
    const argNames = new NameAllocator();
    const args: Record<string, unknown> = {};
    const renamed: string[] = [];
    for (const arg of Array.isArray(wire.arguments) ? wire.arguments.filter(isRecord) : []) {
      const argWire = stringOr(arg.name) ?? '';
      const argName = argNames.keep(argWire, 'arg');
      if (argName !== argWire) renamed.push(`${quote(argWire)} -> "${argName}"`);
      const entry: Record<string, unknown> = {};
      if (nonEmpty(arg.title)) entry.title = arg.title;
      if (nonEmpty(arg.description)) entry.description = arg.description;
      if (typeof arg.required === 'boolean') entry.required = arg.required;
      args[argName] = entry;
      for (const marked of importedTextNote(entry, ['prompts', name, 'arguments', argName], origin))
        note(marked.path, marked.text);
    }
    if (Object.keys(args).length > 0) prompt.arguments = args;
    prompts[name] = prompt;
    for (const marked of importedTextNote(prompt, ['prompts', name], origin)) note(marked.path, marked.text);
    if (name !== wireName) note(['prompts', name], `prompt ${quote(wireName)} on the wire ${notKept}; renamed`);
    if (renamed.length > 0)
      note(
        ['prompts', name],
        `arguments renamed (a wire name the manifest cannot hold, or one that clashes): ${renamed.join(', ')}`,
      );
    note(
      ['prompts', name],
      "TODO messages: the wire shows a prompt's text only when it is fetched; " +
        'write fixed messages here, or leave them out and build them in the handler',
    );
  }
  return prompts;
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}
