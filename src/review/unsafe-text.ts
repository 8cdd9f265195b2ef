/**
 * Text a model reads as part of the server's self-description (titles,
 * descriptions, instructions) must say what a human reviewer sees: no
 * characters that reorder or hide text, and no phrases that address the model
 * instead of describing the server ("tool poisoning").
 */
import type { Finding } from '../diagnostics/index.js';
import { walkSchema } from '../model/schema-walk.js';
import type { ServerModel } from '../model/types.js';
import { formatPointer } from '../util/json-pointer.js';

/** Bidirectional embeddings, overrides and isolates: shown text differs from the order a model reads. */
const bidiControls = /[\u202A-\u202E\u2066-\u2069]/u;
/** Characters that take no space: hidden text between visible words. */
const zeroWidth = /[\u200B-\u200D\u2060\uFEFF]/u;
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

/**
 * Every title, description and instruction a host passes to
 * the model, with its manifest pointer and what it belongs to.
 */
function modelFacingTexts(model: ServerModel): { pointer: string; owner: string; text: string | null }[] {
  const texts: { pointer: string; owner: string; text: string | null }[] = [
    { pointer: '/server/title', owner: 'server title', text: model.server.title },
    { pointer: '/server/description', owner: 'server description', text: model.server.description },
    { pointer: '/server/instructions', owner: 'server instructions', text: model.server.instructions },
  ];
  for (const tool of model.tools) {
    texts.push(
      { pointer: `${tool.pointer}/title`, owner: `tool "${tool.name}" title`, text: tool.title },
      { pointer: `${tool.pointer}/description`, owner: `tool "${tool.name}" description`, text: tool.description },
    );
    for (const part of ['input', 'output'] as const) {
      walkSchema(tool[part], (node, path) => {
        for (const key of ['title', 'description'] as const) {
          const value = node[key];
          if (typeof value === 'string')
            texts.push({
              pointer: `${tool.pointer}/${part}${formatPointer(path)}/${key}`,
              owner: `tool "${tool.name}" ${part}${path.length === 0 ? '' : ` ${formatPointer(path)}`} ${key}`,
              text: value,
            });
        }
      });
    }
  }
  for (const resource of model.resources) {
    texts.push(
      { pointer: `${resource.pointer}/title`, owner: `resource "${resource.name}" title`, text: resource.title },
      {
        pointer: `${resource.pointer}/description`,
        owner: `resource "${resource.name}" description`,
        text: resource.description,
      },
    );
  }
  for (const prompt of model.prompts) {
    texts.push(
      { pointer: `${prompt.pointer}/title`, owner: `prompt "${prompt.name}" title`, text: prompt.title },
      {
        pointer: `${prompt.pointer}/description`,
        owner: `prompt "${prompt.name}" description`,
        text: prompt.description,
      },
    );
    for (const argument of prompt.arguments) {
      const at = `${prompt.pointer}/arguments/${argument.name}`;
      texts.push(
        {
          pointer: `${at}/title`,
          owner: `prompt "${prompt.name}" argument "${argument.name}" title`,
          text: argument.title,
        },
        {
          pointer: `${at}/description`,
          owner: `prompt "${prompt.name}" argument "${argument.name}" description`,
          text: argument.description,
        },
      );
    }
  }
  return texts;
}

/** One finding per title, description or instruction that hides, reorders or injects. */
export function lintUnsafeText(model: ServerModel): Finding[] {
  const out: Finding[] = [];
  for (const { pointer, owner, text } of modelFacingTexts(model)) {
    const reason = text === null ? null : unsafeTextReason(text);
    if (reason === null) continue;
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
