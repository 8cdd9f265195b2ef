import { answerKind, bodyKind, isMediaType } from '../../model/media.js';
import { entriesOf, isRecord, stringOr } from '../../util/guards.js';
import type { RuleContext } from '../context.js';

/** The `{name}` placeholders of a path template, in order. */
export function pathPlaceholders(template: string): string[] {
  return [...template.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1] ?? '');
}

/** The styles each location takes (OpenAPI Parameter Object, Encoding Object for form fields). */
const stylesOf: Readonly<Record<string, readonly string[]>> = {
  path: ['simple', 'label', 'matrix'],
  query: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'],
  field: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'],
  header: ['simple'],
  cookie: ['form'],
  body: [],
};

/** An `args` entry's location and its name in the request (the placeholder of a path argument). */
function argumentOf(name: string, value: unknown): { in: string | undefined; wire: string; style: string | undefined } {
  if (!isRecord(value)) return { in: stringOr(value), wire: name, style: undefined };
  return { in: stringOr(value.in), wire: stringOr(value.name) ?? name, style: stringOr(value.style) };
}

/** The variables each credential type needs. */
const credentialKeys: Readonly<Record<string, readonly string[]>> = {
  bearer: ['token'],
  apiKey: ['name', 'value'],
  basic: ['username', 'password'],
  oauth2: ['tokenUrl', 'clientId', 'clientSecret'],
};

/**
 * `upstream` and each tool's `http`: every variable named is a declared `config` variable, each credential type
 * names what it needs, a bound tool needs `upstream`, every path placeholder is a `path` argument, and every argument
 * is an input property.
 */
export function checkBindings(ctx: RuleContext): void {
  if (!isRecord(ctx.data)) return;
  const config = isRecord(ctx.data.config) ? ctx.data.config : {};
  const upstream = isRecord(ctx.data.upstream) ? ctx.data.upstream : null;
  const variable = (value: unknown, at: readonly (string | number)[]) => {
    const name = stringOr(value);
    if (name !== undefined && !(name in config))
      ctx.report(
        'upstream-unknown-variable',
        at,
        `"${name}" is not a declared config variable`,
        `declare it under config: (e.g. ${name}: { description: ..., required: false })`,
      );
  };
  if (upstream !== null) {
    variable(upstream.baseUrl, ['upstream', 'baseUrl']);
    const check = (credential: unknown, at: readonly string[]) => {
      const c = isRecord(credential) ? credential : null;
      const type = stringOr(c?.type);
      for (const key of type === undefined ? [] : (credentialKeys[type] ?? [])) {
        if (c?.[key] === undefined)
          ctx.report(
            'upstream-credential-incomplete',
            at,
            `a "${type}" credential needs "${key}"`,
            `add ${key}: naming the config variable that holds it`,
          );
        else if (key !== 'name') variable(c[key], [...at, key]);
      }
    };
    check(upstream.credential, ['upstream', 'credential']);
    for (const [name, credential] of entriesOf(upstream.credentials))
      check(credential, ['upstream', 'credentials', name]);
  }
  for (const [tool, entry] of entriesOf(ctx.data.tools)) {
    if (!isRecord(entry) || !isRecord(entry.http)) continue;
    const http = entry.http;
    if (upstream === null)
      ctx.report(
        'http-without-upstream',
        ['tools', tool, 'http'],
        `tool "${tool}" has http: but the manifest declares no upstream:`,
        'add upstream: { baseUrl: <config variable> }',
      );
    variable(http.baseUrl, ['tools', tool, 'http', 'baseUrl']);
    const named = upstream !== null && isRecord(upstream.credentials) ? upstream.credentials : {};
    for (const [i, alternative] of (Array.isArray(http.security) ? http.security : []).entries())
      for (const [j, name] of (Array.isArray(alternative) ? alternative : []).entries())
        if (typeof name === 'string' && !(name in named))
          ctx.report(
            'http-unknown-credential',
            ['tools', tool, 'http', 'security', i, j],
            `"${name}" is not a credential of upstream.credentials`,
            `declare it under upstream.credentials, or name one of: ${Object.keys(named).join(', ') || '(none)'}`,
          );
    const input = isRecord(entry.input) && isRecord(entry.input.properties) ? entry.input.properties : {};
    const args = isRecord(http.args) ? http.args : {};
    const placeholders = pathPlaceholders(stringOr(http.path) ?? '');
    const entries = Object.entries(args).map(([name, value]) => ({ name, ...argumentOf(name, value) }));
    for (const name of placeholders) {
      const arg = entries.find((a) => a.in === 'path' && a.wire === name);
      if (arg === undefined || !(arg.name in input))
        ctx.report(
          'http-path-parameter',
          ['tools', tool, 'http', 'path'],
          `path parameter "{${name}}" is not a "path" argument of an input property`,
          `add "${name}" to input.properties and args: { ${name}: path }`,
        );
    }
    for (const arg of entries) {
      const { name } = arg;
      if (!(name in input))
        ctx.report(
          'http-unknown-argument',
          ['tools', tool, 'http', 'args', name],
          `argument "${name}" is not an input property of tool "${tool}"`,
          'name an input property, or drop the entry',
        );
      else if (arg.in === 'path' && !placeholders.includes(arg.wire))
        ctx.report(
          'http-path-parameter',
          ['tools', tool, 'http', 'args', name],
          `argument "${name}" goes to the path, which has no "{${arg.wire}}"`,
          `add {${arg.wire}} to the path template, or send it elsewhere`,
        );
      if (arg.style !== undefined && arg.in !== undefined && !(stylesOf[arg.in] ?? []).includes(arg.style))
        ctx.report(
          'http-argument-style',
          ['tools', tool, 'http', 'args', name, 'style'],
          `a "${arg.in}" argument cannot have style "${arg.style}"`,
          `use one of: ${(stylesOf[arg.in] ?? []).join(', ') || 'no style'}`,
        );
    }
    for (const [name, value] of Object.entries(args)) checkContent(ctx, ['tools', tool, 'http', 'args', name], value);
    checkBodyMedia(ctx, tool, stringOr(http.body), entries, input);
    checkAccept(ctx, tool, stringOr(http.accept), isRecord(entry.output) && http.result !== 'wrap');
    const media = stringOr(http.body) ?? 'application/json';
    const body = bodyKind(media);
    // The Encoding Object is a form's or a multipart body's: on any other body the runtime never reads it.
    if (body !== 'form' && body !== 'multipart' && entriesOf(http.encoding).length > 0)
      ctx.report(
        'http-encoding',
        ['tools', tool, 'http', 'encoding'],
        `encoding applies to a form or multipart body, and this body is sent as ${media}`,
        'drop encoding, or set http.body to application/x-www-form-urlencoded or multipart/form-data',
      );
    else
      for (const [member, encoding] of entriesOf(http.encoding)) {
        if (isRecord(encoding)) checkEncoding(ctx, ['tools', tool, 'http', 'encoding', member], encoding, body);
        const style = isRecord(encoding) ? stringOr(encoding.style) : undefined;
        if (style !== undefined && body !== 'multipart' && !(stylesOf.field ?? []).includes(style))
          ctx.report(
            'http-argument-style',
            ['tools', tool, 'http', 'encoding', member, 'style'],
            `a body member cannot have style "${style}"`,
            `use one of: ${(stylesOf.field ?? []).join(', ')}`,
          );
      }
  }
}

const quoted = (key: string) => `"${key}"`;

/**
 * A body member's Encoding Object holds only what its body sends: a part's `contentType` one media type, sent as
 * the part's Content-Type; style keys in a form only, as a multipart part is its value as it is (each array item a
 * part of its own); a `contentType` in a multipart body only, as a form member is sent by style.
 */
function checkEncoding(ctx: RuleContext, at: readonly string[], encoding: Record<string, unknown>, body: unknown) {
  const contentType = stringOr(encoding.contentType);
  const styled = Object.keys(encoding).filter((key) => ['style', 'explode', 'allowReserved'].includes(key));
  if (contentType !== undefined && !isMediaType(contentType))
    ctx.report(
      'http-encoding',
      [...at, 'contentType'],
      `a part's contentType must be one media type, not "${contentType}"`,
      'name the one type the API takes (image/png rather than image/* or a list): it is sent as the Content-Type',
    );
  else if (contentType !== undefined && body === 'form')
    ctx.report(
      'http-encoding',
      [...at, 'contentType'],
      'a form member is sent by style and cannot have a contentType',
      'drop contentType, or send the body as multipart/form-data',
    );
  if (styled.length > 0 && body === 'multipart')
    ctx.report(
      'http-encoding',
      [...at, styled[0] ?? 'style'],
      `a multipart part is sent as its value (an array one part per item) and cannot have ` +
        styled.map(quoted).join(', '),
      `drop ${styled.join(', ')}; write a handler if the API reads one joined value`,
    );
}

/** The locations a `content` argument goes to: each is one string value, where JSON text fits. */
const contentLocations = ['path', 'query', 'header', 'cookie'];

/**
 * A `content` argument (the value's JSON text) names a JSON media type, goes to a parameter's location, and has no
 * style keys, which serialize a value by style, not by its media type.
 */
function checkContent(ctx: RuleContext, at: readonly string[], value: unknown): void {
  const content = isRecord(value) ? stringOr(value.content) : undefined;
  if (content === undefined || !isRecord(value)) return;
  const location = stringOr(value.in) ?? '';
  const styled = ['style', 'explode', 'allowReserved'].filter((key) => key in value);
  if (bodyKind(content) !== 'json')
    ctx.report(
      'http-argument-content',
      [...at, 'content'],
      `an argument's content must be a JSON media type, not "${content}"`,
      'name application/json (or a +json type), or drop content and serialize the value by style',
    );
  else if (!contentLocations.includes(location))
    ctx.report(
      'http-argument-content',
      [...at, 'content'],
      `a "${location}" argument cannot have content`,
      `send it in one of: ${contentLocations.join(', ')}; or drop content`,
    );
  else if (styled.length > 0)
    ctx.report(
      'http-argument-content',
      [...at, styled[0] ?? 'style'],
      `an argument with content is sent as its JSON text and cannot also have ${styled.map(quoted).join(', ')}`,
      `drop ${styled.join(', ')}, or drop content`,
    );
}

/**
 * A text or bytes body (`http.body`) is one string: its `body` argument is a string (bytes: `contentEncoding:
 * base64`), and no argument is a `field` of a body object, so nothing is sent that the input does not say.
 */
function checkBodyMedia(
  ctx: RuleContext,
  tool: string,
  media: string | undefined,
  entries: readonly { name: string; in: string | undefined }[],
  input: Readonly<Record<string, unknown>>,
): void {
  const kind = media === undefined ? 'json' : bodyKind(media);
  if (kind === null) {
    ctx.report(
      'http-body-media',
      ['tools', tool, 'http', 'body'],
      `no binding can send a body of media type "${media}"`,
      'name the one type the API takes (no wildcard; a form type in lower case, without parameters), or write ' +
        'a handler',
    );
    return;
  }
  if (kind !== 'text' && kind !== 'bytes') return;
  const base64 = kind === 'bytes';
  for (const arg of entries) {
    const schema = isRecord(input[arg.name]) ? (input[arg.name] as Record<string, unknown>) : {};
    const fits = schema.type === 'string' && (!base64 || schema.contentEncoding === 'base64');
    const at = ['tools', tool, 'http', 'args', arg.name];
    if (arg.in === 'field')
      ctx.report(
        'http-body-media',
        at,
        `a "${media}" body is one string, which has no fields: argument "${arg.name}" cannot be one`,
        `send "${arg.name}" in the path, the query or a header`,
      );
    else if (arg.in === 'body' && !fits)
      ctx.report(
        'http-body-media',
        at,
        `a "${media}" body is one string: argument "${arg.name}" must be ` +
          (base64 ? 'a base64 string (type: string, contentEncoding: base64)' : 'a string (type: string)'),
        `give input property "${arg.name}" type: string${base64 ? ' and contentEncoding: base64' : ''}`,
      );
  }
}

/**
 * An answer that is not JSON is the tool's text or content, or `{ result }` with `result: wrap`: a tool whose output is
 * the answer's object (`result: body`) and that asks for no JSON type would fail every call.
 */
function checkAccept(ctx: RuleContext, tool: string, accept: string | undefined, objectOutput: boolean): void {
  if (accept === undefined || !objectOutput) return;
  if (accept.split(',').some((range) => answerKind(range.trim()) === 'json')) return;
  ctx.report(
    'http-accept-output',
    ['tools', tool, 'http', 'accept'],
    `the tool asks for "${accept}", which is not JSON, but its output schema is the answer's object`,
    "drop output: (the answer becomes the tool's text or content), or set http.result: wrap with a string result",
  );
}
