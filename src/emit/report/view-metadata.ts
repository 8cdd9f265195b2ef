/**
 * DESIGN.md's table of what a host shows besides names and descriptions: the icons of the server and of each
 * primitive, and a resource's annotations and size. Every value is manifest text, so it is printed as data (code
 * spans and escaped cells), never as an image or a link: a host decides whether to load an icon, the report does not.
 */
import type { IconModel, ServerModel } from '../../model/types.js';
import { cell, code, table } from '../shared/markdown.js';

/** How long a source may be before the report shortens it; a data: URI shows its media type and its length. */
const shownLength = 80;

function iconText(icon: IconModel): string {
  const comma = icon.src.indexOf(',');
  const src = icon.src.startsWith('data:')
    ? `${icon.src.slice(0, comma + 1)}… (${icon.src.length} characters)`
    : icon.src.length > shownLength
      ? `${icon.src.slice(0, shownLength - 1)}…`
      : icon.src;
  const details = [icon.mimeType, icon.sizes?.join(' '), icon.theme].filter((d) => d !== undefined);
  return details.length === 0 ? code(src) : `${code(src)} ${cell(`(${details.join(', ')})`)}`;
}

function iconsCell(icons: readonly IconModel[]): string {
  return icons.length === 0 ? '—' : icons.map(iconText).join('; ');
}

/** One row per item with icons, annotations or a size; empty text when nothing has any. */
export function metadataTable(model: ServerModel): string {
  const rows: string[][] = [];
  const add = (kind: string, name: string, icons: readonly IconModel[], annotations = '—', size = '—') => {
    if (icons.length > 0 || annotations !== '—' || size !== '—')
      rows.push([kind, code(name), iconsCell(icons), annotations, size]);
  };
  add('server', model.server.name, model.server.icons);
  for (const tool of model.tools) add('tool', tool.name, tool.icons);
  for (const r of model.resources) {
    const a = r.annotations;
    const hints =
      a === null
        ? []
        : [
            a.audience === undefined ? null : `audience: ${a.audience.join(', ')}`,
            a.priority === undefined ? null : `priority: ${a.priority}`,
            a.lastModified === undefined ? null : `lastModified: ${a.lastModified}`,
          ].filter((h) => h !== null);
    add(
      r.uri === null ? 'resource template' : 'resource',
      r.name,
      r.icons,
      cell(hints.join('; ')),
      r.size === null ? '—' : `${r.size} bytes`,
    );
  }
  for (const prompt of model.prompts) add('prompt', prompt.name, prompt.icons);
  return rows.length === 0 ? '' : table(['kind', 'name', 'icons', 'annotations', 'size'], rows);
}
