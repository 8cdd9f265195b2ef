/**
 * Metadata a host shows (manifest `icons`, a resource's `annotations` and `size`): sent on the wire as declared,
 * keys in the order MCP's schema lists them, absent fields left out.
 */

/** One icon: `src` is an `https:` URL or an image `data:` URI (validate checked it). */
export interface IconModel {
  readonly src: string;
  readonly mimeType?: string;
  readonly sizes?: readonly string[];
  readonly theme?: 'light' | 'dark';
}

/** A resource's `annotations`: hints for the host, never for the server's own behaviour. */
export interface ResourceAnnotationsModel {
  readonly audience?: readonly ('user' | 'assistant')[];
  readonly priority?: number;
  /** ISO 8601, as written. */
  readonly lastModified?: string;
}
