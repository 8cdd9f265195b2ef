/**
 * Text a model reads as part of the server's self-description (titles,
 * descriptions, instructions) must say what a human reviewer sees: no
 * characters that reorder or hide text, and no phrases that address the model
 * instead of describing the server ("tool poisoning").
 */
import type { Finding } from '../diagnostics/index.js';
import { zeroWidth } from '../model/hidden-text.js';
import { walkSchema } from '../model/schema-walk.js';
import type { ServerModel, ToolModel } from '../model/types.js';
import { formatPointer } from '../util/json-pointer.js';
import { type Memo, noMemo } from '../util/memo.js';

/** Bidirectional embeddings, overrides and isolates: shown text differs from the order a model reads. */
const bidiControls = /[\u202A-\u202E\u2066-\u2069]/u;
/** Phrases that speak to the model about its instructions; a description describes, it does not command. */
const injectionPhrases: readonly RegExp[] = [
  new RegExp(
    String.raw`\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?` +
      String.raw`(?:previous|prior|above|earlier|preceding|other|system)\s+` +
      String.raw`(?:instructions|prompts?|messages|rules|directions)\b`,
    'iu',
  ),
  /\b(?:reveal|print|show|repeat|output)\s+(?:your|the)\s+system\s+prompt\b/iu,
  /\bdo\s+not\s+(?:tell|inform|show)\s+the\s+user\b/iu,
];
/**
 * Any of the phrases, in one pass: most texts have none, and one scan is a third of three (GitHub's 60,000
 * titles and descriptions). It only says whether to look further; the first phrase in the list's order is the one
 * reported, as before.
 */
const anyInjectionPhrase = new RegExp(injectionPhrases.map((phrase) => `(?:${phrase.source})`).join('|'), 'iu');

/** What is wrong with `text`, or null when it reads as plain description. */
export function unsafeTextReason(text: string): string | null {
  const bidi = bidiControls.exec(text);
  if (bidi !== null)
    return (
      `a bidirectional control character (U+${codePoint(bidi[0])}), ` +
      'which shows the text in another order than a model reads it'
    );
  const hidden = zeroWidth.exec(text);
  if (hidden !== null) return `a zero-width character (U+${codePoint(hidden[0])}), which hides text from a reviewer`;
  if (!anyInjectionPhrase.test(text)) return null;
  for (const phrase of injectionPhrases) {
    const match = phrase.exec(text);
    if (match !== null) return `"${match[0]}", which addresses the model instead of describing the server`;
  }
  return null;
}

function codePoint(char: string): string {
  return (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
}

/** Where a model-facing text is: its manifest pointer and what it belongs to. */
interface Place {
  readonly pointer: string;
  readonly owner: string;
}

/** A model-facing text and its place, built only for a text that is reported (a large API has 60,000 texts). */
interface FacingText {
  readonly text: string | null;
  readonly place: () => Place;
}

const at = (text: string | null, pointer: string, owner: string): FacingText => ({
  text,
  place: () => ({ pointer, owner }),
});

/**
 * The server's title, description and instructions, which a host passes to the model, with their manifest
 * pointers and what they belong to (as the texts of the tools, resources and prompts below).
 */
function serverFacingTexts(model: ServerModel): FacingText[] {
  return [
    at(model.server.title, '/server/title', 'server title'),
    at(model.server.description, '/server/description', 'server description'),
    at(model.server.instructions, '/server/instructions', 'server instructions'),
  ];
}

/** A tool's title and description, and those of every node of its schemas. */
function toolFacingTexts(tool: ToolModel): FacingText[] {
  const texts = [
    at(tool.title, `${tool.pointer}/title`, `tool "${tool.name}" title`),
    at(tool.description, `${tool.pointer}/description`, `tool "${tool.name}" description`),
  ];
  for (const part of ['input', 'output'] as const) {
    walkSchema(tool[part], (node, path) => {
      for (const key of ['title', 'description'] as const) {
        const value = node[key];
        if (typeof value === 'string')
          texts.push({
            text: value,
            place: () => ({
              pointer: `${tool.pointer}/${part}${formatPointer(path)}/${key}`,
              owner: `tool "${tool.name}" ${part}${path.length === 0 ? '' : ` ${formatPointer(path)}`} ${key}`,
            }),
          });
      }
    });
  }
  return texts;
}

/** The resources' and prompts' titles and descriptions, and their arguments'. */
function otherFacingTexts(model: ServerModel): FacingText[] {
  const texts: FacingText[] = [];
  for (const resource of model.resources) {
    texts.push(
      at(resource.title, `${resource.pointer}/title`, `resource "${resource.name}" title`),
      at(resource.description, `${resource.pointer}/description`, `resource "${resource.name}" description`),
    );
  }
  for (const prompt of model.prompts) {
    texts.push(
      at(prompt.title, `${prompt.pointer}/title`, `prompt "${prompt.name}" title`),
      at(prompt.description, `${prompt.pointer}/description`, `prompt "${prompt.name}" description`),
    );
    for (const argument of prompt.arguments) {
      const pointer = `${prompt.pointer}/arguments/${argument.name}`;
      const owner = `prompt "${prompt.name}" argument "${argument.name}"`;
      texts.push(
        at(argument.title, `${pointer}/title`, `${owner} title`),
        at(argument.description, `${pointer}/description`, `${owner} description`),
      );
    }
  }
  return texts;
}

/**
 * One finding per title, description or instruction that hides, reorders or injects: the server's, each tool's
 * (a function of the tool alone, which `memo` may give back), then the resources' and prompts'.
 */
export function lintUnsafeText(model: ServerModel, memo: Memo = noMemo): Finding[] {
  return [
    ...unsafeFindings(serverFacingTexts(model)),
    ...model.tools.flatMap((tool) =>
      memo.recall('review.unsafe-text', tool, (t) => unsafeFindings(toolFacingTexts(t))),
    ),
    ...unsafeFindings(otherFacingTexts(model)),
  ];
}

function unsafeFindings(texts: readonly FacingText[]): Finding[] {
  const out: Finding[] = [];
  for (const { text, place } of texts) {
    const reason = text === null ? null : unsafeTextReason(text);
    if (reason === null) continue;
    const { pointer, owner } = place();
    out.push({
      code: 'lint-description-unsafe',
      message: `${owner} contains ${reason}`,
      hint:
        'write plain text that describes what it does; remove invisible ' +
        'and direction characters and any instruction to the model',
      at: { pointer, target: 'value' },
    });
  }
  return out;
}
