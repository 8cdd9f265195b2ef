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
import { hashSortedJson } from '../../util/stable-json.js';

type ListName = keyof PagesSpec['cursors'];

function digestOf(items: readonly unknown[]): string {
  const hash = createHash('sha256');
  hashSortedJson(hash, items);
  return hash.digest('hex');
}

/** The cursor of each page after the first, for a list of `count` items with contents digest `digest`. */
function cursors(list: ListName, digest: string, count: number, size: number): string[] {
  const pages: string[] = [];
  for (let offset = size; offset < count; offset += size)
    pages.push(
      createHash('sha256')
        .update(`mcp-gen page\n${list}\n${digest}\n${offset}`, 'utf8')
        .digest('base64url')
        .slice(0, 32),
    );
  return pages;
}

/**
 * The pages of `model`'s lists: `lists` holds each list's items as the registry records them, in registry order
 * (what the server lists, item for item).
 */
export function pagesData(model: ServerModel, lists: Readonly<Record<ListName, readonly unknown[]>>): PagesSpec {
  const size = model.pagination.pageSize;
  const of = (list: ListName): string[] => cursors(list, digestOf(lists[list]), lists[list].length, size);
  return {
    size,
    cursors: {
      tools: of('tools'),
      prompts: of('prompts'),
      resources: of('resources'),
      resourceTemplates: of('resourceTemplates'),
    },
  };
}
