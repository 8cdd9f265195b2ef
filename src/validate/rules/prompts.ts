import { entriesOf, isRecord } from '../../util/guards.js';
import { suggestClosest } from '../../util/suggest.js';
import type { RuleContext } from '../context.js';

/** `{{name}}` placeholders in prompt message text; inner spaces are allowed. */
export const placeholderPattern = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Every placeholder in a prompt's messages names one of its arguments. */
export function checkPromptPlaceholders(ctx: RuleContext): void {
  for (const [name, prompt] of entriesOf(isRecord(ctx.data) ? ctx.data.prompts : undefined)) {
    if (!isRecord(prompt) || !Array.isArray(prompt.messages)) continue;
    const args = entriesOf(prompt.arguments).map(([arg]) => arg);
    prompt.messages.forEach((message: unknown, i) => {
      if (!isRecord(message) || typeof message.text !== 'string') return;
      const reported = new Set<string>();
      for (const match of message.text.matchAll(placeholderPattern)) {
        const placeholder = match[1] ?? '';
        if (args.includes(placeholder) || reported.has(placeholder)) continue;
        reported.add(placeholder);
        const guess = suggestClosest(placeholder, args);
        const hint =
          guess !== undefined
            ? `did you mean "{{${guess}}}"?`
            : `declare "${placeholder}" under prompts.${name}.arguments`;
        ctx.report(
          'prompt-placeholder-unknown',
          ['prompts', name, 'messages', i, 'text'],
          `prompt "${name}" uses {{${placeholder}}}, which is not one of its arguments`,
          hint,
        );
      }
    });
  }
}
