/**
 * The data of HTTP bindings as bindings.gen.ts writes it and upstream.gen.ts reads it, shipped only with them. The
 * generator's model declares its bindings with these types (templates/tsconfig.contract.json), so both stay one.
 */

/** Where one argument goes: `body` is the whole request body, `field` one member of the body object. */
export type ArgumentLocation = 'path' | 'query' | 'header' | 'cookie' | 'body' | 'field';

/** How a request body is encoded; `multipart/form-data` is sent as FormData (fetch writes the boundary). */
export type BodyEncoding = 'application/json' | 'application/x-www-form-urlencoded' | 'multipart/form-data';

/** A tool's `http:`, as the generator normalized it. */
export interface HttpBindingSpec {
  readonly tool: string;
  readonly method: string;
  readonly path: string;
  readonly args: readonly { readonly name: string; readonly in: ArgumentLocation }[];
  readonly body: BodyEncoding;
  readonly result: 'body' | 'wrap';
  readonly errorMessage: string | null;
  /** Whether the tool has an output schema: structured content, else the JSON as text. */
  readonly structured: boolean;
}

/** How requests are signed; every string names a config variable. */
export type UpstreamCredentialSpec =
  | { readonly type: 'none' }
  | { readonly type: 'bearer'; readonly token: string }
  | { readonly type: 'apiKey'; readonly in: 'header' | 'query'; readonly name: string; readonly value: string }
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
}
