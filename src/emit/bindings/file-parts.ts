/**
 * The file members of a multipart body: those whose input schema is base64 text (`contentEncoding: base64`), or an
 * array of it. The runtime sends each one's bytes as a file part (`FieldEncodingSpec.bytes`), as a bytes body is sent.
 */
import type { FieldEncodingSpec } from '../../model/bindings.js';
import type { ToolModel } from '../../model/types.js';
import { isRecord } from '../../util/guards.js';

type Schema = Readonly<Record<string, unknown>>;

/** `schema` with a `#/$defs/<name>` reference of the tool's wire input followed (a shared schema). */
function followed(tool: ToolModel, schema: unknown): Schema | null {
  const defs = isRecord(tool.wireInput.$defs) ? tool.wireInput.$defs : {};
  let node = schema;
  for (let hops = 0; hops < 8 && isRecord(node) && typeof node.$ref === 'string'; hops += 1)
    node = node.$ref.startsWith('#/$defs/') ? defs[node.$ref.slice('#/$defs/'.length)] : undefined;
  return isRecord(node) ? node : null;
}

const isBase64 = (schema: Schema | null) => schema?.type === 'string' && schema.contentEncoding === 'base64';

/** The multipart members of `tool`'s body, by their name on the wire, and the schema of each. */
function bodyMembers(tool: ToolModel): [string, unknown][] {
  const properties = followed(tool, tool.wireInput)?.properties;
  const input = isRecord(properties) ? properties : {};
  return (tool.http?.args ?? []).flatMap((arg): [string, unknown][] => {
    if (arg.in === 'field') return [[arg.wire ?? arg.name, input[arg.name]]];
    if (arg.in !== 'body') return [];
    const body = followed(tool, input[arg.name])?.properties;
    return isRecord(body) ? Object.entries(body) : [];
  });
}

/** `encoding` with `bytes: true` on each file member of a multipart body; as it is for any other body. */
export function withFileParts(
  tool: ToolModel,
  encoding: Readonly<Record<string, FieldEncodingSpec>>,
): Readonly<Record<string, FieldEncodingSpec>> {
  if (tool.http?.body !== 'multipart/form-data') return encoding;
  const out = { ...encoding };
  for (const [name, raw] of bodyMembers(tool)) {
    const schema = followed(tool, raw);
    const items = schema?.type === 'array' ? followed(tool, schema.items) : null;
    if (isBase64(schema) || isBase64(items)) out[name] = { ...out[name], bytes: true };
  }
  return out;
}
