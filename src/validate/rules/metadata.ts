import { entriesOf, isRecord, stringOr } from '../../util/guards.js';
import type { RuleContext } from '../context.js';
import { iconMimeTypes } from '../manifest-schema-metadata.js';

// `data:<image type>[;param]*[;base64],<payload>`; the payload of a base64 one is checked on its own.
const dataUri = /^data:([a-z]+\/[a-z0-9.+-]+)((?:;[A-Za-z0-9.+-]+=[A-Za-z0-9.+-]+)*)(;base64)?,(.*)$/s;
const base64 = /^[A-Za-z0-9+/]+={0,2}$/;
// RFC 3339 (the ISO 8601 profile MCP's `lastModified` means): date, `T`, time, optional fraction, a zone.
const dateTime = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))$/;

/** Every `icons` list of the manifest with its path: the server's, then each tool's, resource's and prompt's. */
function iconLists(data: unknown): [(string | number)[], unknown][] {
  if (!isRecord(data)) return [];
  const lists: [(string | number)[], unknown][] = [];
  if (isRecord(data.server)) lists.push([['server', 'icons'], data.server.icons]);
  for (const section of ['tools', 'resources', 'prompts'])
    for (const [name, entry] of entriesOf(data[section]))
      if (isRecord(entry)) lists.push([[section, name, 'icons'], entry.icons]);
  return lists;
}

/**
 * Why `src` is not a source a host may load, or null: only `https:` URLs (without credentials) and `data:` URIs of an
 * icon image type, since MCP tells clients to refuse every other scheme.
 */
function unsafeSource(src: string): { problem: string; hint: string } | null {
  const image = `one of ${iconMimeTypes.join(', ')}`;
  // A URL parser would quietly encode these, but the source goes out as written.
  if (/[\s\p{Cc}]/u.test(src))
    return { problem: 'contains a space, a line break or a control character', hint: 'percent-encode it (%20)' };
  const data = dataUri.exec(src);
  if (data !== null) {
    const [, type = '', , encoded, payload = ''] = data;
    if (!(iconMimeTypes as readonly string[]).includes(type))
      return { problem: `is a data: URI of "${type}"`, hint: `inline an image of ${image}` };
    if (payload === '' || (encoded !== undefined && !base64.test(payload)))
      return {
        problem: 'has an empty or malformed data: payload',
        hint: 'inline the image as base64 after ";base64,"',
      };
    return null;
  }
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return { problem: 'is not an absolute URL', hint: 'write an https: URL, e.g. "https://example.com/icon.png"' };
  }
  if (url.protocol === 'http:')
    return { problem: 'uses http:', hint: `serve it over https: ("https:${src.slice('http:'.length)}")` };
  if (url.protocol !== 'https:')
    return {
      problem: `uses the scheme "${url.protocol}"`,
      hint: 'hosts refuse any scheme but https: and data:; serve the image over https: or inline it as a data: URI',
    };
  if (url.username !== '' || url.password !== '')
    return { problem: 'carries credentials', hint: 'hosts fetch icons without credentials; remove "user:password@"' };
  return null;
}

/** Each icon's `src` is https: or an image data: URI; a declared `mimeType` agrees with a data: URI's own. */
export function checkIcons(ctx: RuleContext): void {
  for (const [path, list] of iconLists(ctx.data)) {
    if (!Array.isArray(list)) continue;
    list.forEach((icon: unknown, index) => {
      if (!isRecord(icon)) return;
      const src = stringOr(icon.src);
      if (src === undefined || src === '') return;
      const unsafe = unsafeSource(src);
      const shown = src.length > 60 ? `${src.slice(0, 57)}...` : src;
      if (unsafe !== null) {
        ctx.report('icon-src-unsafe', [...path, index, 'src'], `icon src "${shown}" ${unsafe.problem}`, unsafe.hint);
        return;
      }
      const declared = stringOr(icon.mimeType);
      const inline = dataUri.exec(src)?.[1];
      if (declared !== undefined && inline !== undefined && declared !== inline)
        ctx.report(
          'value-format',
          [...path, index, 'mimeType'],
          `icon mimeType "${declared}" differs from its data: URI's "${inline}"`,
          `write mimeType "${inline}", or leave it out`,
        );
    });
  }
}

/** True when `text` is an RFC 3339 date-time naming a real instant (no 31 February, no hour 24). */
export function isDateTime(text: string): boolean {
  const m = dateTime.exec(text);
  if (m === null) return false;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, zoneHour = 0, zoneMinute = 0] = m
    .slice(1)
    .map((v) => Number(v ?? 0));
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate(); // day 0 of the next month: this month's last
  const inMonth = month >= 1 && month <= 12 && day >= 1 && day <= days;
  return inMonth && hour < 24 && minute < 60 && second < 60 && zoneHour < 24 && zoneMinute < 60;
}

/** A resource's `annotations.lastModified` is a real date-time; `size` belongs to fixed resources only. */
export function checkResourceMetadata(ctx: RuleContext): void {
  for (const [name, resource] of entriesOf(isRecord(ctx.data) ? ctx.data.resources : undefined)) {
    if (!isRecord(resource)) continue;
    const modified = isRecord(resource.annotations) ? stringOr(resource.annotations.lastModified) : undefined;
    if (modified !== undefined && !isDateTime(modified))
      ctx.report(
        'date-time-format',
        ['resources', name, 'annotations', 'lastModified'],
        `resource "${name}" lastModified "${modified}" is not an ISO 8601 date-time`,
        'write a date, "T", a time and a zone, e.g. "2026-07-28T09:00:00Z"',
      );
    if (resource.size !== undefined && resource.uriTemplate !== undefined && resource.uri === undefined)
      ctx.report(
        'resource-size-template',
        ['resources', name, 'size'],
        `resource "${name}" is a uriTemplate and cannot have a size`,
        'remove "size"; a template names many resources of different sizes',
        'key',
      );
  }
}
