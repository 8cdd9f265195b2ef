/**
 * Characters that hide text from a person who reads it: the review refuses them in what a model reads
 * (review/unsafe-text.ts), and `import` writes imported titles and descriptions without them
 * (import/visible-text.ts), so both mean the same characters.
 */

/** Characters that take no space: hidden text between visible words. */
export const zeroWidth = /[\u200B-\u200D\u2060\uFEFF]/u;
