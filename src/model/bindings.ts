/** The model of HTTP bindings: a tool's `http:` and the server's `upstream:` (normalize/bindings.ts fills them). */

/** Where one argument goes: `body` is the whole request body, `field` one member of the body object. */
export type ArgumentLocation = 'path' | 'query' | 'header' | 'cookie' | 'body' | 'field';

/** A tool's `http:`, with defaults applied; `args` sorted by name. */
export interface HttpBindingModel {
  readonly method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  readonly path: string;
  readonly args: readonly { readonly name: string; readonly in: ArgumentLocation }[];
  readonly body: 'application/json' | 'application/x-www-form-urlencoded';
  readonly result: 'body' | 'wrap';
  /** JSON pointer to the message of an error response; null: the first of /message, /error, /detail. */
  readonly errorMessage: string | null;
}

/** How upstream requests are signed; every string names a `config` variable. */
export type UpstreamCredentialModel =
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

/** The manifest's `upstream`: the config variable of the base URL and the credential. */
export interface UpstreamModel {
  readonly baseUrl: string;
  readonly credential: UpstreamCredentialModel;
}
