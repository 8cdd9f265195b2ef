/**
 * verify: drift of a running server against its manifest.
 * In: the manifest's model and what live/ read from the server. Out: every
 * difference, each named by its JSON pointer with both values (server info,
 * instructions, versions, capabilities, tools, resources, resource templates
 * and prompts), what the server offers that a manifest cannot declare (as
 * information), and the toolset digests of both sides. Pure.
 */
import { discoverContract } from '../emit/registry/discover.js';
import type { LiveServer, WireItem } from '../live/index.js';
import { splitListedMembers } from '../model/listed-members.js';
import { listedTools } from '../model/search.js';
import { toolsetDigest } from '../model/toolset.js';
import type { ServerModel } from '../model/types.js';
import { compareText } from '../util/compare.js';
import { serverName } from '../util/server-name.js';
import { compareProtocol } from './capabilities.js';
import { expectedLists } from './expected.js';
import { canonical, differences, pointerOf, show, showPair } from './pointer.js';
import { type ItemView, promptView, resourceView, toolView, type Undeclarable } from './semantic.js';

type ListKind = 'tool' | 'resource' | 'resource template' | 'prompt';

/** One way the live server differs from the manifest, as a line for people. */
export interface Drift {
  readonly kind:
    | 'era'
    | 'versions'
    | 'capabilities'
    | 'server'
    | `${'tool' | 'resource' | 'template' | 'prompt'}-${'added' | 'removed' | 'changed'}`;
  /** The JSON pointer that differs (`/tools/add/description`), or null for era, versions and capabilities. */
  readonly pointer: string | null;
  readonly message: string;
}

/** The verdict of `mcp-gen verify`. */
export interface VerifyResult {
  readonly expectedDigest: string;
  readonly liveDigest: string;
  readonly drift: readonly Drift[];
  /** What differs but is not drift: what a manifest cannot declare, and names the manifest holds another way. */
  readonly info: readonly string[];
}

/** Compares the live server with what the manifest declares, by meaning (see docs/verify.md). */
export function verifyServer(model: ServerModel, live: LiveServer): VerifyResult {
  const contract = discoverContract(model);
  const protocol = compareProtocol(model, contract, live);
  const drift: Drift[] = protocol.drift.map((d) => ({ ...d, pointer: null }));
  const info = [...protocol.info];
  compareServer(model, live, drift, info);
  const expected = expectedLists(model);
  // Members a list handler names come and go with the data: they are information, not drift.
  const listedTemplates = expected.templates.filter((t) =>
    model.resources.some((r) => r.list !== null && r.uriTemplate === t.uriTemplate),
  );
  const listed = splitListedMembers(live.resources, listedTemplates);
  for (const [template, count] of listed.members)
    info.push(`resources/list names ${count} member(s) of "${template}", which a handler lists; not compared`);
  const lists: [ListKind, string, string, readonly WireItem[], readonly WireItem[], (i: WireItem) => ItemView][] = [
    ['tool', 'tools', 'name', listedTools(model), live.tools, toolView],
    ['resource', 'resources', 'uri', expected.resources, listed.fixed, resourceView],
    ['resource template', 'resourceTemplates', 'uriTemplate', expected.templates, live.resourceTemplates, resourceView],
    ['prompt', 'prompts', 'name', expected.prompts, live.prompts, promptView],
  ];
  for (const [kind, section, key, mine, theirs, view] of lists)
    compareList({ kind, section, key, view }, mine, theirs, drift, info);
  return { expectedDigest: toolsetDigest(listedTools(model)), liveDigest: toolsetDigest(live.tools), drift, info };
}

function compareServer(model: ServerModel, live: LiveServer, drift: Drift[], info: string[]): void {
  const wireName = typeof live.serverInfo.name === 'string' ? live.serverInfo.name : '';
  if (wireName !== model.server.name && serverName(wireName) === model.server.name)
    info.push(`server name "${wireName}" is not a manifest name; the manifest holds it as "${model.server.name}"`);
  const mine = {
    serverInfo: {
      name: serverName(model.server.name),
      version: model.server.wireVersion ?? model.server.version,
      title: model.server.title ?? undefined,
      description: model.server.description ?? undefined,
    },
    instructions: model.server.instructions ?? undefined,
  };
  const theirs = {
    serverInfo: {
      name: serverName(wireName),
      version: live.serverInfo.version,
      title: live.serverInfo.title,
      description: live.serverInfo.description,
    },
    instructions: live.instructions === null || live.instructions === '' ? undefined : live.instructions,
  };
  for (const d of differences(mine, theirs)) drift.push(changed('server', 'server changed', d.pointer, d));
}

interface ListSpec {
  readonly kind: ListKind;
  readonly section: string;
  readonly key: string;
  readonly view: (item: WireItem) => ItemView;
}

function compareList(
  spec: ListSpec,
  mine: readonly WireItem[],
  theirs: readonly WireItem[],
  drift: Drift[],
  info: string[],
): void {
  const code = spec.kind === 'resource template' ? 'template' : spec.kind;
  const keyOf = (item: WireItem) => String(item[spec.key]);
  const declared = new Map(mine.map((item) => [keyOf(item), item]));
  const served = new Map(theirs.map((item) => [keyOf(item), item]));
  const set: Map<string, string[]> = new Map();
  for (const name of [...served.keys()].filter((n) => !declared.has(n)).sort(compareText))
    drift.push({
      kind: `${code}-added`,
      pointer: pointerOf([spec.section, name]),
      message: `${spec.kind} added: "${name}" is on the server but not in the manifest`,
    });
  for (const [name, item] of [...declared].sort(([a], [b]) => compareText(a, b))) {
    const got = served.get(name);
    if (got === undefined) {
      drift.push({
        kind: `${code}-removed`,
        pointer: pointerOf([spec.section, name]),
        message: `${spec.kind} removed: "${name}" is in the manifest but not on the server`,
      });
      continue;
    }
    const expected = spec.view(item).view;
    const actual = spec.view(got);
    for (const extra of actual.undeclarable) setAside(set, extra, name);
    // A wire name the manifest cannot hold was renamed by import; the item's identity is its key.
    if (spec.kind !== 'tool' && spec.kind !== 'prompt' && !manifestHoldsName(actual.view.name)) {
      info.push(`${spec.kind} "${name}": name ${canonical(actual.view.name)} is not a manifest name; not compared`);
      delete actual.view.name;
      delete expected.name;
    }
    for (const d of differences(expected, actual.view))
      drift.push(changed(`${code}-changed`, `${spec.kind} changed: "${name}" ${d.pointer}`, d.pointer, d, spec, name));
  }
  for (const [line, names] of [...set].sort(([a], [b]) => compareText(a, b)))
    info.push(`${spec.section}: ${line} on ${names.length} (${listed(names)}): a manifest cannot declare it`);
}

function manifestHoldsName(name: unknown): boolean {
  return typeof name === 'string' && /^[A-Za-z0-9_.-]{1,128}$/.test(name);
}

function setAside(set: Map<string, string[]>, extra: Undeclarable, item: string): void {
  const line = `"${extra.field}" ${show(extra.value)}`;
  set.set(line, [...(set.get(line) ?? []), item]);
}

function listed(names: readonly string[]): string {
  const shown = names.slice(0, 5).map((n) => `"${n}"`);
  return names.length > 5 ? `${shown.join(', ')} and ${names.length - 5} more` : shown.join(', ');
}

function changed(
  kind: Drift['kind'],
  label: string,
  inner: string,
  d: { manifest: unknown; server: unknown },
  spec?: ListSpec,
  name?: string,
): Drift {
  const [a, b] = showPair(d.manifest, d.server);
  const pointer = spec === undefined || name === undefined ? inner : `${pointerOf([spec.section, name])}${inner}`;
  const head = spec === undefined ? `${label}: ${inner}` : label;
  return { kind, pointer, message: `${head}: manifest ${a}, server ${b}` };
}
