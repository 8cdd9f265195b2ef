/**
 * The model of HTTP bindings: a tool's `http:` and the server's `upstream:` (normalize/bindings.ts fills them). The
 * runtime declares the shared parts (templates/runtime/upstream-spec.gen.ts), so the two cannot drift apart.
 */
import type {
  ArgumentLocation,
  BodyEncoding,
  UpstreamCredentialSpec,
} from '../../templates/runtime/upstream-spec.gen.js';

export type { ArgumentLocation, BodyEncoding };

/** A tool's `http:`, with defaults applied; `args` sorted by name. */
export interface HttpBindingModel {
  readonly method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  readonly path: string;
  readonly args: readonly { readonly name: string; readonly in: ArgumentLocation }[];
  readonly body: BodyEncoding;
  readonly result: 'body' | 'wrap';
  /** JSON pointer to the message of an error response; null: the first of /message, /error, /detail. */
  readonly errorMessage: string | null;
}

/** How upstream requests are signed; every string names a `config` variable. */
export type UpstreamCredentialModel = UpstreamCredentialSpec;

/** The manifest's `upstream`: the config variable of the base URL and the credential. */
export interface UpstreamModel {
  readonly baseUrl: string;
  readonly credential: UpstreamCredentialModel;
}
