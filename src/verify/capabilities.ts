/**
 * Capabilities and the protocol era, compared for what a manifest can
 * declare: a capability it has no way to say (logging, tasks) is information,
 * not drift; neither are the `listChanged` and `subscribe` flags, which follow
 * the manifest's `notifications`.
 * Pure.
 */
import type { LiveServer } from '../live/index.js';
import type { ServerModel } from '../model/types.js';
import { compareText } from '../util/compare.js';
import { isRecord } from '../util/guards.js';
import { canonical } from './pointer.js';

/** What capabilities and era contribute to the verdict. */
export interface Findings {
  readonly drift: { readonly kind: 'era' | 'versions' | 'capabilities'; readonly message: string }[];
  readonly info: string[];
}

/** Capabilities that follow from the lists the manifest declares; the lists themselves are compared item by item. */
const listKinds = new Set(['tools', 'resources', 'prompts']);

export function compareProtocol(
  model: ServerModel,
  expected: { readonly supportedVersions: readonly string[]; readonly capabilities: object },
  live: LiveServer,
): Findings {
  const findings: Findings = { drift: [], info: [] };
  // The modern revisions only: the legacy one is named below, by the handshake that reached it.
  const served = expected.supportedVersions.filter((v) => v !== live.protocolVersion).join(', ');
  if (live.era !== 'modern') {
    // A manifest cannot say "2025-11-25 only"; with legacy: serve it answers that revision too.
    const text =
      `server answered only the ${live.protocolVersion} handshake, not server/discover; ` +
      `the manifest serves ${served}`;
    if (model.protocol.legacy === 'serve')
      findings.info.push(`${text} and, with protocol.legacy: serve, ${live.protocolVersion} clients`);
    else findings.drift.push({ kind: 'era', message: `${text} and rejects ${live.protocolVersion} clients` });
  } else if (canonical(live.supportedVersions) !== canonical(expected.supportedVersions)) {
    findings.drift.push({
      kind: 'versions',
      message:
        'server/discover supportedVersions: manifest ' +
        `${canonical(expected.supportedVersions)}, server ${canonical(live.supportedVersions)}`,
    });
  }
  const want = expected.capabilities as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(want), ...Object.keys(live.capabilities)])].sort(compareText);
  for (const key of keys) {
    const mine = want[key];
    const theirs = live.capabilities[key];
    if (canonical(mine) === canonical(theirs)) continue;
    const line = `capability "${key}": manifest ${canonical(mine)}, server ${canonical(theirs)}`;
    if (key === 'completions' && mine !== undefined && theirs === undefined) findings.drift.push(capability(line));
    else if (key === 'completions')
      findings.info.push(`${line} (completion values are declared per argument; the wire does not list them)`);
    else if (listKinds.has(key)) findings.info.push(`${line} (${listNote(mine, theirs)})`);
    else findings.info.push(`${line} (a manifest cannot declare it)`);
  }
  return findings;
}

function capability(message: string) {
  return { kind: 'capabilities' as const, message };
}

function listNote(mine: unknown, theirs: unknown): string {
  if (mine === undefined || theirs === undefined) return 'the list itself is compared item by item';
  const flags = [...new Set([...Object.keys(asRecord(mine)), ...Object.keys(asRecord(theirs))])].sort(compareText);
  return `${flags.join(', ')}: a generated server sets them from the manifest's notifications`;
}

function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}
