/**
 * The cursors of every list page, fixed at generate time. A cursor is a hash of
 * the list's name, the digest of its contents and the page's offset: it names
 * one position of one version of one list, so a cursor that a client edited,
 * or one from a build whose list differs, matches no page and is refused
 * (-32602). Being data rather than a runtime secret, the same cursors hold on
 * every instance of a build and across restarts, and no server hashes anything
 * at run time.
 */
import { createHash } from 'node:crypto';
import type { PagesSpec } from '../../../templates/runtime/spec.gen.js';
import type { ServerModel } from '../../model/types.js';
import { type Cost, pageStarts } from '../../review/tokens.js';
import { hashSortedJson } from '../../util/stable-json.js';

type ListName = keyof PagesSpec['cursors'];

/**
 * The sha256 of the list's sorted JSON on one line. `lines` holds the `sortedLine` of items whose text the registry
 * writes anyway (a large project's tools, in registry.gen.json): hashed as they are, not written a second time.
 */
function digestOf(items: readonly unknown[], lines: ReadonlyMap<unknown, string>): string {
  const hash = createHash('sha256');
  if (items.some((item) => !lines.has(item))) hashSortedJson(hash, items);
  else {
    hash.update('[');
    for (const [i, item] of items.entries()) hash.update(`${i === 0 ? '' : ','}${lines.get(item)}`, 'utf8');
    hash.update(']');
  }
  return hash.digest('hex');
}

/** The offset of each page after the first, for a list of `count` items cut every `size` items. */
function offsets(count: number, size: number): number[] {
  const out: number[] = [];
  for (let offset = size; offset < count; offset += size) out.push(offset);
  return out;
}

/** The cursor of each page at `offsets`, for a list with contents digest `digest`. */
function cursors(list: ListName, digest: string, at: readonly number[]): string[] {
  return at.map((offset) =>
    createHash('sha256').update(`mcp-gen page\n${list}\n${digest}\n${offset}`, 'utf8').digest('base64url').slice(0, 32),
  );
}

/**
 * The pages of `model`'s lists: `lists` holds each list's items as the registry records them, in registry order
 * (what the server lists, item for item), and `toolCosts` the size of each tool as tools/list sends it. Tool pages
 * are cut by bytes too (pageStarts); `toolStarts` is written only when that moves a cut, so a list cut by count
 * alone stays as it was. `lines`: see `digestOf`.
 */
export function pagesData(
  model: ServerModel,
  lists: Readonly<Record<ListName, readonly unknown[]>>,
  toolCosts: readonly Cost[] = [],
  lines: ReadonlyMap<unknown, string> = new Map(),
): PagesSpec {
  const size = model.pagination.pageSize;
  const digest = (list: ListName) => digestOf(lists[list], lines);
  const of = (list: ListName): string[] => cursors(list, digest(list), offsets(lists[list].length, size));
  const byCount = [0, ...offsets(lists.tools.length, size)];
  const starts = toolCosts.length === lists.tools.length ? pageStarts(toolCosts, size) : byCount;
  const byBytes = starts.length !== byCount.length || starts.some((s, i) => s !== byCount[i]);
  return {
    size,
    ...(byBytes ? { toolStarts: starts } : {}),
    cursors: {
      tools: byBytes ? cursors('tools', digest('tools'), starts.slice(1)) : of('tools'),
      prompts: of('prompts'),
      resources: of('resources'),
      resourceTemplates: of('resourceTemplates'),
    },
  };
}
