/**
 * Who answers a server's question during `mcp-gen call`: the person at the
 * terminal when there is one, otherwise a fixed answer — decline, or with
 * `--yes` accept (every yes/no field yes, every other field its default), which
 * is meant for scripted tests against test backends, never for real data.
 */
import { createInterface } from 'node:readline';
import { isRecord } from '../util/guards.js';
import type { Answer, Answerer, FieldValue, Question } from './session.js';

/** What the question is about, shown with it: `tool "name"` (or the resource or prompt) and its arguments. */
export interface Asking {
  readonly what: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

function fields(question: Question): [string, Record<string, unknown>][] {
  const properties = isRecord(question.requestedSchema.properties) ? question.requestedSchema.properties : {};
  return Object.entries(properties).map(([key, schema]) => [key, isRecord(schema) ? schema : {}]);
}

function required(question: Question): string[] {
  const list = question.requestedSchema.required;
  return Array.isArray(list) ? list.filter((k): k is string => typeof k === 'string') : [];
}

function isFieldValue(value: unknown): value is FieldValue {
  if (Array.isArray(value)) return value.every((v) => typeof v === 'string');
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function header(asking: Asking, question: Question): string {
  return (
    `mcp-gen: ${asking.what} with arguments ${JSON.stringify(asking.arguments)} asks:\n` + `  ${question.message}\n`
  );
}

/** Without a terminal: decline, or with `yes` accept; `say` tells stderr what was answered and why. */
export function fixedAnswerer(yes: boolean, asking: Asking, say: (text: string) => void): Answerer {
  return async (question) => {
    if (!yes) {
      say(
        `${header(asking, question)}mcp-gen: declined: standard input is not a terminal; ` +
          'pass --yes to accept (for scripted tests against test backends only)\n',
      );
      return { action: 'decline' };
    }
    const content: Record<string, FieldValue> = {};
    for (const [key, schema] of fields(question)) {
      if (schema.type === 'boolean') content[key] = true;
      else if (isFieldValue(schema.default)) content[key] = schema.default;
    }
    const missing = required(question).filter((key) => !Object.hasOwn(content, key));
    if (missing.length > 0) {
      say(`${header(asking, question)}mcp-gen: declined: --yes cannot fill ${missing.join(', ')}\n`);
      return { action: 'decline' };
    }
    say(`${header(asking, question)}mcp-gen: accepted (--yes)\n`);
    return { action: 'accept', content };
  };
}

/** One field's answer from its typed text, or a reason to ask again. */
function readField(text: string, schema: Record<string, unknown>): { value: FieldValue } | { problem: string } {
  if (schema.type === 'boolean') {
    if (/^(y|yes)$/i.test(text)) return { value: true };
    if (/^(n|no)$/i.test(text)) return { value: false };
    return { problem: 'answer yes or no' };
  }
  if (schema.type === 'number' || schema.type === 'integer') {
    const value = Number(text);
    if (text === '' || !Number.isFinite(value) || (schema.type === 'integer' && !Number.isInteger(value)))
      return { problem: `answer ${schema.type === 'integer' ? 'an integer' : 'a number'}` };
    return { value };
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(text))
    return { problem: `answer one of ${schema.enum.join(', ')}` };
  return { value: text };
}

/** Asks each field of the form on the terminal (questions on stderr, answers from stdin). */
export function terminalAnswerer(
  asking: Asking,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): Answerer {
  return async (question) => {
    output.write(header(asking, question));
    const rl = createInterface({ input, output });
    const ask = (prompt: string) =>
      new Promise<string | null>((resolve) => {
        rl.once('close', () => resolve(null));
        rl.question(prompt, (text) => resolve(text.trim()));
      });
    try {
      const content: Record<string, FieldValue> = {};
      const mandatory = required(question);
      for (const [key, schema] of fields(question)) {
        const label = typeof schema.title === 'string' ? schema.title : key;
        const hint = schema.type === 'boolean' ? ' (yes/no)' : '';
        for (;;) {
          const text = await ask(`  ${label}${hint}: `);
          if (text === null) return { action: 'decline' } satisfies Answer;
          if (text === '' && !mandatory.includes(key) && schema.type !== 'boolean') break;
          const read = readField(text, schema);
          if ('value' in read) {
            content[key] = read.value;
            break;
          }
          output.write(`  ${read.problem}\n`);
        }
      }
      return { action: 'accept', content } satisfies Answer;
    } finally {
      rl.close();
    }
  };
}
