/**
 * The data of HTTP bindings as bindings.gen.ts writes it and upstream.gen.ts reads it, shipped only with them. The
 * generator's model declares its bindings with these types (templates/tsconfig.contract.json), so both stay one.
 */

/** Where one argument goes: `body` is the whole request body, `field` one member of the body object. */
export type ArgumentLocation = 'path' | 'query' | 'header' | 'cookie' | 'body' | 'field';

/**
 * The request body's media type: `application/json` or another JSON type (`application/merge-patch+json`, ...) is sent
 * as JSON with that content type, `application/x-www-form-urlencoded` as a form, `multipart/form-data` as FormData
 * (fetch writes the boundary), any other type as the `body` argument's text, or its bytes (`bytes`).
 */
export type BodyEncoding = string;

/** An OpenAPI parameter style (upstream-wire.gen.ts encodes each as the OpenAPI Specification's table says). */
export type ParameterStyle = 'simple' | 'label' | 'matrix' | 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';

/** How one argument is serialized; every key left out takes the OpenAPI default of its location. */
export interface ArgumentSpec {
  readonly name: string;
  readonly in: ArgumentLocation;
  /** The parameter's name in the request, when it is not the input property's (a path and a query `name`). */
  readonly wire?: string;
  readonly style?: ParameterStyle;
  readonly explode?: boolean;
  /** Query and form values only: RFC 3986 reserved characters are sent unencoded. */
  readonly allowReserved?: boolean;
  /**
   * A JSON media type (OpenAPI `content` in place of `schema`): the value is sent as its JSON text, one string value
   * of its location; no style applies.
   */
  readonly content?: string;
}

/** How one member of a form or multipart body is encoded (the OpenAPI Encoding Object). */
export interface FieldEncodingSpec {
  readonly style?: ParameterStyle;
  readonly explode?: boolean;
  readonly allowReserved?: boolean;
  /** Multipart only: the part's content type. */
  readonly contentType?: string;
  /** Multipart only: the member (each item of an array) is base64 text whose bytes are the part, a file. */
  readonly bytes?: true;
}

/** A tool's `http:`, as the generator normalized it. */
export interface HttpBindingSpec {
  readonly tool: string;
  readonly method: string;
  readonly path: string;
  /** The config variable of the base URL this request goes to, when not `UpstreamSpec.baseUrl`. */
  readonly baseUrl?: string;
  readonly args: readonly ArgumentSpec[];
  readonly body: BodyEncoding;
  /** The `body` argument is base64 text (validated as such) and its bytes are the body (`application/octet-stream`). */
  readonly bytes?: true;
  /** The Accept header, when not `application/json`; each answer is read by its own Content-Type. */
  readonly accept?: string;
  /** Per member of a form or multipart body, when it is not the default. */
  readonly encoding?: Readonly<Record<string, FieldEncodingSpec>>;
  readonly result: 'body' | 'wrap';
  readonly errorMessage: string | null;
  /** Whether the tool has an output schema: structured content, else the JSON as text. */
  readonly structured: boolean;
  /** A 2xx answer that does not match the output schema: `warn` (absent) returns it with a warning, `strict` fails. */
  readonly outputCheck?: 'warn' | 'strict';
  /** Alternatives of `UpstreamSpec.credentials` names sent together; `[]` public; absent: `UpstreamSpec.credential`. */
  readonly security?: readonly (readonly string[])[];
}

/** How requests are signed; every string names a config variable. */
export type UpstreamCredentialSpec =
  | { readonly type: 'none' }
  | { readonly type: 'bearer'; readonly token: string }
  | {
      readonly type: 'apiKey';
      readonly in: 'header' | 'query' | 'cookie';
      readonly name: string;
      readonly value: string;
    }
  | { readonly type: 'basic'; readonly username: string; readonly password: string }
  | {
      readonly type: 'oauth2';
      readonly tokenUrl: string;
      readonly clientId: string;
      readonly clientSecret: string;
      readonly scopes: readonly string[];
    };

export interface UpstreamSpec {
  readonly baseUrl: string;
  readonly credential: UpstreamCredentialSpec;
  /** The named credentials that a binding's `security` chooses from; absent when none. */
  readonly credentials?: Readonly<Record<string, UpstreamCredentialSpec>>;
}
