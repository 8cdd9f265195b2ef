import type { WireItem } from '../live/index.js';
import { isRecord } from '../util/guards.js';

/**
 * What `import server` keeps of the metadata a host shows: icons, a resource's annotations and size. Wire
 * text stays data: it is copied into the draft's fields as values, and `check` judges it (an unsafe icon
 * source is an error there, not here).
 */

const iconKeys = ['src', 'mimeType', 'sizes', 'theme'] as const;
const annotationKeys = ['audience', 'priority', 'lastModified'] as const;

/** The wire item's `icons`, each with only the keys the manifest holds; undefined when it has none. */
export function wireIcons(item: Readonly<Record<string, unknown>>): Record<string, unknown>[] | undefined {
  if (!Array.isArray(item.icons)) return undefined;
  const icons = item.icons
    .filter((icon): icon is Record<string, unknown> => isRecord(icon) && typeof icon.src === 'string')
    .map((icon) => Object.fromEntries(iconKeys.filter((k) => icon[k] !== undefined).map((k) => [k, icon[k]])));
  return icons.length > 0 ? icons : undefined;
}

/** A listed resource's `annotations` (the keys the manifest holds) and `size`, to spread into its entry. */
export function wireResourceMetadata(item: WireItem): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const icons = wireIcons(item);
  if (icons !== undefined) out.icons = icons;
  if (isRecord(item.annotations)) {
    const source = item.annotations;
    const kept = Object.fromEntries(annotationKeys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
    if (Object.keys(kept).length > 0) out.annotations = kept;
  }
  if (typeof item.uri === 'string' && typeof item.size === 'number') out.size = item.size;
  return out;
}
