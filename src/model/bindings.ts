/**
 * The model of HTTP bindings: a tool's `http:` and the server's `upstream:` (normalize/bindings.ts fills them). The
 * runtime declares the shared parts (templates/runtime/upstream-spec.gen.ts), so the two cannot drift apart.
 */
import type {
  ArgumentLocation,
  ArgumentSpec,
  BodyEncoding,
  FieldEncodingSpec,
  ParameterStyle,
  UpstreamCredentialSpec,
} from '../../templates/runtime/upstream-spec.gen.js';

export type { ArgumentLocation, ArgumentSpec, BodyEncoding, FieldEncodingSpec, ParameterStyle };

/** A tool's `http:`, with defaults applied; `args` sorted by name. */
export interface HttpBindingModel {
  readonly method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  readonly path: string;
  /** The `config` variable of the base URL the request goes to; null: `upstream.baseUrl`. */
  readonly baseUrl: string | null;
  /** Each argument; `wire`, `style`, `explode`, `allowReserved` and `content` only where the manifest sets them. */
  readonly args: readonly ArgumentSpec[];
  /** The request body's media type. */
  readonly body: BodyEncoding;
  /** The media ranges the request asks for (its Accept header). */
  readonly accept: string;
  /** The Encoding Object of each form or multipart body member that has one; empty without. */
  readonly encoding: Readonly<Record<string, FieldEncodingSpec>>;
  readonly result: 'body' | 'wrap';
  /** A 2xx answer that does not match the output schema: returned with a warning (`warn`) or a tool error. */
  readonly outputCheck: 'warn' | 'strict';
  /** JSON pointer to the message of an error response; null: the usual shapes (upstream.gen.ts, usualMessage). */
  readonly errorMessage: string | null;
  /** Alternatives of `upstream.credentials` names sent together; `[]` public; null: `upstream.credential`. */
  readonly security: readonly (readonly string[])[] | null;
}

/** How upstream requests are signed; every string names a `config` variable. */
export type UpstreamCredentialModel = UpstreamCredentialSpec;

/** The manifest's `upstream`: the config variable of the base URL and the credential. */
export interface UpstreamModel {
  readonly baseUrl: string;
  readonly credential: UpstreamCredentialModel;
  /** The named credentials, sorted by name; empty without. */
  readonly credentials: Readonly<Record<string, UpstreamCredentialModel>>;
}
