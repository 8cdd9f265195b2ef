/**
 * The record an `import openapi` leaves next to its manifest, `.mcp-gen/import-base.json`: the draft it wrote,
 * as data, before any edit, and how it was made (the spec, the filters, the overlays, each path relative to the
 * manifest's folder). `import openapi --update` merges against that draft and reapplies those filters. The file
 * is JSON with two-space indentation and the draft's own key order, so the same import writes the same bytes.
 */
import { isRecord } from '../util/guards.js';
import { ImportError } from './import-error.js';

/** Where the record lives, relative to the manifest's folder. */
export const importBasePath = '.mcp-gen/import-base.json';

export interface ImportBase {
  /** The manifest's file name, in its folder. */
  readonly manifest: string;
  readonly spec: string;
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly overlays: readonly string[];
  /** The draft's data, as the manifest held it when written. */
  readonly draft: Readonly<Record<string, unknown>>;
}

/** The record as the text of its file. */
export function importBaseText(base: ImportBase): string {
  const { manifest, spec, include, exclude, overlays, draft } = base;
  return `${JSON.stringify({ mcpGenImport: 1, manifest, spec, include, exclude, overlays, draft }, null, 2)}\n`;
}

/** The record in `text` (the file `file`); an `ImportError` when it is not one. */
export function parseImportBase(text: string, file: string): ImportBase {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = null;
  }
  const strings = (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === 'string');
  if (
    !isRecord(data) ||
    data.mcpGenImport !== 1 ||
    typeof data.manifest !== 'string' ||
    typeof data.spec !== 'string' ||
    !strings(data.include) ||
    !strings(data.exclude) ||
    !strings(data.overlays) ||
    !isRecord(data.draft)
  )
    throw new ImportError({
      code: 'import-update',
      file,
      message: 'not an import record written by mcp-gen import openapi',
      hint: 'restore the file from version control, or import the spec into a new file and move your edits over',
    });
  return data as unknown as ImportBase;
}
