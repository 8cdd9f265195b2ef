/**
 * Metadata a host shows: `icons` (server, tools, resources, resource templates, prompts) and a resource's
 * `annotations` and `size`. Kept beside manifest-schema.ts, which spreads them in. The schema checks the shape;
 * rules/metadata.ts checks what a pattern cannot say well (an icon's URL scheme, a real date-time).
 */

/** The image types an icon may declare: clients MUST render PNG and JPEG and SHOULD render SVG and WebP. */
export const iconMimeTypes = ['image/png', 'image/jpeg', 'image/svg+xml', 'image/webp'] as const;

/** One icon; manifest-schema.ts names it `#/definitions/icon` (the `ManifestIcon` type). */
export const iconSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['src'],
  properties: {
    src: {
      type: 'string',
      minLength: 1,
      maxLength: 65536,
      description:
        'An `https:` URL or a `data:` URI of one of the image types (`data:image/png;base64,...`). ' +
        'No other scheme (`http:`, `javascript:`, `file:`).',
    },
    mimeType: {
      enum: [...iconMimeTypes],
      description: 'The image type, when the URL does not say it.',
    },
    sizes: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { type: 'string', pattern: '^(any|[1-9][0-9]{0,4}x[1-9][0-9]{0,4})$' },
      description: 'Sizes the image suits, as `WIDTHxHEIGHT` (`48x48`) or `any` for a scalable one.',
    },
    theme: {
      enum: ['light', 'dark'],
      description: 'The background the icon is drawn for.',
    },
  },
} as const;

/** `icons:` of the server, a tool, a resource or a prompt: sent as given, in order. */
export const iconsSchema = {
  type: 'array',
  minItems: 1,
  maxItems: 16,
  items: { $ref: '#/definitions/icon' },
  description:
    'Icons a host may show, each `{ src, mimeType, sizes, theme }`, sent as given in `icons` on the wire. ' +
    'See "Icons and annotations".',
} as const;

/** A resource's `annotations:`, sent in resources/list and resources/templates/list. */
export const resourceAnnotationsSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  description: 'Hints for the host: `audience`, `priority` and `lastModified`, sent as given.',
  properties: {
    audience: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { enum: ['user', 'assistant'] },
      description: 'Who the resource is for: `user`, `assistant` or both.',
    },
    priority: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description: 'How important it is, from 0 (optional) to 1 (required).',
    },
    lastModified: {
      type: 'string',
      description: 'When it last changed: an ISO 8601 date-time with a zone, e.g. `2026-07-28T09:00:00Z`.',
    },
  },
} as const;

/** A fixed resource's `size:` in bytes, sent in resources/list; a template has none. */
export const resourceSizeSchema = {
  type: 'integer',
  minimum: 0,
  description: 'The size of the raw content in bytes, before any encoding; only for a fixed `uri`.',
} as const;
