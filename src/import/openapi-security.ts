/**
 * The security of an imported OpenAPI document: each security scheme a credential with its own `config` variables,
 * each operation's `security` requirement its `http.security` (alternatives of credentials sent together, `[]` for a
 * public operation), and header, query and cookie parameters that carry credentials turned into config variables.
 */
import { secretLooking } from '../model/secret-names.js';
import { isRecord, stringOr } from '../util/guards.js';
import { quote } from './names.js';

type Raw = Readonly<Record<string, unknown>>;
type Credential = Record<string, unknown>;

/** A key name the manifest's credential takes: an HTTP header token, and as plain as a query or cookie name. */
const keyNamePattern = /^[A-Za-z0-9_.-]{1,128}$/;

/** A config variable's name part from any text: upper case, every other character `_`. */
const envPart = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]+/g, '_');

/** The spec's security schemes and requirements, as the draft's `upstream` and each tool's `http.security`. */
export class SecurityDraft {
  readonly #schemes: Raw;
  readonly #made = new Map<string, Credential | null>();
  /** Scheme -> why mcp-gen cannot send it, for the schemes that look sendable but are not. */
  readonly #refused = new Map<string, string>();
  /** Whether the document states a security requirement anywhere. */
  readonly #stated: boolean;

  constructor(
    private readonly api: Raw,
    private readonly prefix: string,
    private readonly config: Record<string, unknown>,
    private readonly upstream: Record<string, unknown>,
    /** The scheme of `upstream.credential`, made first, so that its variables have the plain names. */
    private readonly main: string | null,
  ) {
    const components = isRecord(api.components) ? api.components : {};
    this.#schemes = isRecord(components.securitySchemes) ? components.securitySchemes : {};
    const paths = isRecord(api.paths) ? Object.values(api.paths) : [];
    const operations = paths.flatMap((item) => (isRecord(item) ? Object.values(item) : []));
    this.#stated = api.security !== undefined || operations.some((o) => isRecord(o) && o.security !== undefined);
  }

  /** `<NAME>_<part>`, or `<NAME>_<SCHEME>_<part>` when another scheme (the main one first) holds that name. */
  #variable(scheme: string, part: string): string {
    const plain = `${this.prefix}_${part}`;
    return plain in this.config ? `${this.prefix}_${envPart(scheme)}_${part}` : plain;
  }

  /** A secret config variable of `scheme`'s `part`. */
  #secret(scheme: string, part: string, description: string): string {
    const name = this.#variable(scheme, part);
    this.config[name] = { description, secret: true, required: false };
    return name;
  }

  /** The credential of scheme `name`, its variables declared; null for a scheme mcp-gen cannot send. */
  credential(name: string): Credential | null {
    if (this.#made.has(name)) return this.#made.get(name) ?? null;
    const scheme = this.#schemes[name];
    let made: Credential | null = null;
    if (isRecord(scheme)) {
      const type = stringOr(scheme.type);
      const http = (stringOr(scheme.scheme) ?? '').toLowerCase();
      const flows = isRecord(scheme.flows) ? scheme.flows : {};
      const of = `(security scheme ${quote(name)})`;
      const keyName = stringOr(scheme.name) ?? 'api_key';
      if (type === 'apiKey' && !keyNamePattern.test(keyName))
        this.#refused.set(name, `its key name ${quote(keyName)} is not one a ${String(scheme.in)} can carry`);
      else if (type === 'apiKey' && ['header', 'query', 'cookie'].includes(String(scheme.in)))
        made = {
          type: 'apiKey',
          in: scheme.in,
          name: keyName,
          value: this.#secret(name, 'API_KEY', `The API key ${of}.`),
        };
      else if (type === 'http' && http === 'basic')
        made = {
          type: 'basic',
          username: this.#secret(name, 'USERNAME', `The user name ${of}.`),
          password: this.#secret(name, 'PASSWORD', `The password ${of}; unset sends an empty one.`),
        };
      else if (type === 'oauth2' && isRecord(flows.clientCredentials)) {
        const tokenUrl = this.#variable(name, 'TOKEN_URL');
        const url = stringOr(flows.clientCredentials.tokenUrl);
        this.config[tokenUrl] = {
          description: `The OAuth 2 token endpoint ${of}.`,
          type: 'url',
          ...(url !== undefined && URL.canParse(url) ? { default: url } : { required: false }),
        };
        made = {
          type: 'oauth2',
          tokenUrl,
          clientId: this.#secret(name, 'CLIENT_ID', `The OAuth 2 client id ${of}.`),
          clientSecret: this.#secret(name, 'CLIENT_SECRET', `The OAuth 2 client secret ${of}.`),
        };
      } else if ((type === 'http' && http === 'bearer') || type === 'oauth2' || type === 'openIdConnect')
        made = { type: 'bearer', token: this.#secret(name, 'TOKEN', `The bearer access token ${of}.`) };
    }
    this.#made.set(name, made);
    return made;
  }

  /** The schemes made so far that cannot be sent, with why. */
  refused(): ReadonlyMap<string, string> {
    return this.#refused;
  }

  /** Credential `name` in `upstream.credentials` (declared there on first use). */
  #use(name: string, credential: Credential): string {
    const named = isRecord(this.upstream.credentials) ? (this.upstream.credentials as Credential) : {};
    named[name] = { ...credential };
    this.upstream.credentials = named;
    return name;
  }

  /** The scheme an `apiKey` parameter `p` is the key of, when the document declares one for its name and place. */
  #schemeOf(p: Raw): string | undefined {
    return Object.keys(this.#schemes).find((name) => {
      const s = this.#schemes[name];
      return isRecord(s) && s.type === 'apiKey' && s.in === p.in && s.name === p.name;
    });
  }

  /** Whether parameter `p` carries a credential: named by an `apiKey` scheme, or named like one. */
  carriesCredential(p: Raw): boolean {
    if (!['header', 'query', 'cookie'].includes(String(p.in))) return false;
    return this.#schemeOf(p) !== undefined || secretLooking(String(p.name ?? ''));
  }

  /**
   * `http.security` of `operation`, or undefined when the main credential serves it as it is: its requirement's
   * alternatives (an empty one, optional security, last), each credential-carrying parameter in `secrets` added to
   * every alternative.
   */
  securityOf(operation: Raw, secrets: readonly Raw[]): string[][] | undefined {
    // Without a requirement the operation is public, unless the document states none anywhere (then the
    // schemes it declares are taken to apply to every operation, the main one sent).
    const requirement = operation.security ?? this.api.security ?? (this.#stated ? [] : undefined);
    let alternatives: string[][] | undefined;
    if (Array.isArray(requirement)) {
      const usable = requirement
        .filter(isRecord)
        .map((r) => Object.keys(r))
        .filter((names) => names.every((name) => this.credential(name) !== null));
      alternatives = [...usable.filter((a) => a.length > 0), ...usable.filter((a) => a.length === 0).slice(0, 1)];
      if (alternatives.length === 0 && requirement.length > 0) alternatives = undefined;
    }
    const extra = secrets.map((p) => {
      const scheme = this.#schemeOf(p);
      if (scheme !== undefined) return scheme;
      const name = `${String(p.in)}-${String(p.name)}`;
      const value = this.#variable(String(p.in), envPart(String(p.name)));
      this.config[value] = {
        description: `The ${String(p.in)} parameter ${quote(String(p.name))}, a credential.`,
        secret: true,
        required: false,
      };
      this.#made.set(name, { type: 'apiKey', in: p.in, name: p.name, value });
      return name;
    });
    if (extra.length === 0 && (alternatives === undefined || same(alternatives, this.main))) return undefined;
    if (extra.length === 0 && this.main === null && (alternatives?.length ?? 0) === 0) return undefined;
    const base =
      alternatives === undefined
        ? [this.main === null ? [] : [this.main]]
        : alternatives.length === 0 && extra.length > 0
          ? [[]]
          : alternatives;
    const all = base.map((a) => [...new Set([...a, ...extra])]);
    for (const name of all.flat()) this.#use(name, this.credential(name) ?? {});
    return all;
  }
}

/** Whether `alternatives` is the main scheme alone. */
const same = (alternatives: readonly string[][], main: string | null) =>
  main !== null && alternatives.length === 1 && alternatives[0]?.length === 1 && alternatives[0][0] === main;
