/**
 * verify: drift of a running server against its manifest.
 * In: the manifest's model and what live/ read from the server. Out: every
 * difference (versions, capabilities, tools added, removed or changed and
 * how) and the toolset digests of both sides. Pure.
 */
import { discoverContract } from '../emit/registry/discover.js';
import type { LiveServer } from '../live/index.js';
import { toolsetDigest, wireTools } from '../model/toolset.js';
import type { ServerModel } from '../model/types.js';
import { compareText } from '../util/compare.js';
import { sortKeysDeep } from '../util/stable-json.js';

/** One way the live server differs from the manifest, as a line for people. */
export interface Drift {
  readonly kind: 'era' | 'versions' | 'capabilities' | 'tool-added' | 'tool-removed' | 'tool-changed';
  readonly message: string;
}

/** The verdict of `mcp-gen verify`. */
export interface VerifyResult {
  readonly expectedDigest: string;
  readonly liveDigest: string;
  readonly drift: readonly Drift[];
}

/** Compares the live server with what the manifest declares; no drift means the digests are equal too. */
export function verifyServer(model: ServerModel, live: LiveServer): VerifyResult {
  const drift: Drift[] = [];
  const contract = discoverContract(model);
  if (live.era !== 'modern') {
    drift.push({
      kind: 'era',
      message:
        `server answered only the ${live.protocolVersion} handshake, not ` +
        `server/discover; the manifest serves ${contract.supportedVersions.join(', ')}`,
    });
  } else if (canonical(live.supportedVersions) !== canonical(contract.supportedVersions)) {
    drift.push({
      kind: 'versions',
      message:
        'server/discover supportedVersions: manifest ' +
        `${canonical(contract.supportedVersions)}, server ${canonical(live.supportedVersions)}`,
    });
  }
  for (const key of unionKeys(contract.capabilities, live.capabilities)) {
    const want = (contract.capabilities as Record<string, unknown>)[key];
    const got = live.capabilities[key];
    if (canonical(want) !== canonical(got))
      drift.push({ kind: 'capabilities', message: `capability "${key}": manifest ${show(want)}, server ${show(got)}` });
  }

  const expected = wireTools(model);
  const byName = new Map(live.tools.map((t) => [String(t.name), t]));
  const declared = new Map(expected.map((t) => [t.name, t]));
  for (const name of [...byName.keys()].filter((n) => !declared.has(n)).sort(compareText)) {
    drift.push({ kind: 'tool-added', message: `tool added: "${name}" is on the server but not in the manifest` });
  }
  for (const tool of expected) {
    const got = byName.get(tool.name);
    if (got === undefined) {
      drift.push({
        kind: 'tool-removed',
        message: `tool removed: "${tool.name}" is in the manifest but not on the server`,
      });
      continue;
    }
    for (const key of unionKeys(tool, got)) {
      if (canonical(tool[key]) === canonical(got[key])) continue;
      drift.push({
        kind: 'tool-changed',
        message: `tool changed: "${tool.name}" ${key}: manifest ${show(tool[key])}, server ${show(got[key])}`,
      });
    }
  }
  return { expectedDigest: toolsetDigest(expected), liveDigest: toolsetDigest(live.tools), drift };
}

function unionKeys(a: object, b: object): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(compareText);
}

function canonical(value: unknown): string {
  return value === undefined ? 'absent' : JSON.stringify(sortKeysDeep(value));
}

/** A value for a message: absent, or canonical JSON cut at 200 characters. */
function show(value: unknown): string {
  const text = canonical(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
