/**
 * One toolset per OpenAPI tag: each imported tool is labelled with its operation's tags (a manifest `tags:` value
 * is a wire name, so a tag with other characters is rewritten), and each tag that labels at least one imported
 * tool becomes a `toolsets:` entry selecting it, described by the spec's own description of the tag. A deployment
 * then serves a part of a large API with `<NAME>_TOOLSETS`, and a client narrows with `Mcp-Toolsets`; no toolset
 * is `default: true`, so every one is served until the user chooses.
 */
import { isRecord, stringOr } from '../util/guards.js';
import type { DraftNote } from './draft.js';
import { firstParagraph, quote } from './names.js';

type Raw = Readonly<Record<string, unknown>>;

/** The longest toolset name and tag (a wire name) the manifest takes. */
const maxToolsetName = 64;
const maxLabel = 128;
/** The longest description the draft copies from a tag. */
const maxTagDescription = 300;

/** What a tag becomes: the tools' label and the toolset that selects them. */
interface TagEntry {
  readonly label: string;
  readonly toolset: string;
}

/** Collects each imported tool's tags, then writes the toolsets in the spec's tag order. */
export class TagToolsets {
  private readonly entries = new Map<string, TagEntry>();
  private readonly usedToolsets = new Set<string>();
  private readonly usedLabels = new Set<string>();

  constructor(private readonly api: Raw) {}

  /** The labels of a tool whose operation has `tags`, each tag recorded for its toolset. */
  label(tags: readonly string[]): string[] {
    const labels = tags.map((tag) => this.entry(tag).label);
    return labels.filter((l, i) => labels.indexOf(l) === i);
  }

  /** The `toolsets:` section (empty when no imported tool has a tag), and a note for each copied description. */
  toolsets(): { toolsets: Record<string, Record<string, unknown>>; notes: DraftNote[] } {
    const declared = Array.isArray(this.api.tags) ? this.api.tags.filter(isRecord) : [];
    const described = new Map<string, string>();
    for (const t of declared) {
      const name = stringOr(t.name);
      const text = stringOr(t.description);
      if (name !== undefined && text !== undefined && text.trim() !== '' && !described.has(name))
        described.set(name, foldedDescription(text));
    }
    const order = declared.map((t) => stringOr(t.name)).filter((n): n is string => n !== undefined);
    const tags = [...this.entries.keys()].sort((a, b) => rank(order, a) - rank(order, b));
    const toolsets: Record<string, Record<string, unknown>> = {};
    const notes: DraftNote[] = [];
    for (const tag of tags) {
      const entry = this.entries.get(tag) as TagEntry;
      const text = described.get(tag);
      toolsets[entry.toolset] = {
        description: text ?? `The operations the spec tags ${JSON.stringify(tag)}.`,
        tags: [entry.label],
      };
      if (text !== undefined)
        notes.push({
          path: ['toolsets', entry.toolset, 'description'],
          text: `imported text from the spec (tag ${quote(tag)}): untrusted, read it before publishing`,
        });
    }
    return { toolsets, notes };
  }

  private entry(tag: string): TagEntry {
    const known = this.entries.get(tag);
    if (known !== undefined) return known;
    const entry = {
      label: unique(wireLabel(tag), this.usedLabels, maxLabel),
      toolset: unique(toolsetName(tag), this.usedToolsets, maxToolsetName),
    };
    this.entries.set(tag, entry);
    return entry;
  }
}

/** Where `tag` sits in the spec's own `tags` list; a tag the list does not declare goes after, as first seen. */
function rank(order: readonly string[], tag: string): number {
  const at = order.indexOf(tag);
  return at === -1 ? order.length : at;
}

/**
 * A tag as a manifest label: the characters of a wire name, any other run of characters one `-`, and a run of
 * `-` one (`Account - company level` is `Account-company-level`).
 */
function wireLabel(tag: string): string {
  const label = tag
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return label === '' ? 'tag' : label;
}

/** A tag as a toolset name: lower case, letters, digits, `_` and single `-`, starting with a letter, never `all`. */
function toolsetName(tag: string): string {
  const name = tag
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  if (name === '') return 'tag';
  if (!/^[a-z]/.test(name)) return `tag-${name}`;
  return name === 'all' ? 'all-tag' : name;
}

/** `base`, or `base-2`, `base-3`... when an earlier tag took it (two tags that differ only in case or spacing). */
function unique(base: string, used: Set<string>, max: number): string {
  let name = base.slice(0, max);
  for (let n = 2; used.has(name); n += 1) name = `${base.slice(0, max - String(n).length - 1)}-${n}`;
  used.add(name);
  return name;
}

/** The first paragraph of a tag's description, on one line, at most `maxTagDescription` characters. */
function foldedDescription(text: string): string {
  const paragraph = firstParagraph(text);
  return paragraph.length <= maxTagDescription ? paragraph : `${paragraph.slice(0, maxTagDescription - 1)}…`;
}
