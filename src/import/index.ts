/**
 * import: a manifest draft from something that already exists.
 * In: what a running server listed (from live/) or an OpenAPI
 * document (from load/). Out: the draft as YAML text with TODO comments, and
 * the points a reviewer must decide. Pure: the text is built with the `yaml`
 * document API, so nothing a server or a spec says is spliced into the file.
 */
export { copyAsJson, renderDraft, type Draft, type DraftNote } from './draft.js';
export { draftFromOpenApi } from './from-openapi.js';
export { draftFromServer, type DraftSource } from './from-server.js';
