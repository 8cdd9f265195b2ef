import { createInterface } from 'node:readline';

/** One question of an interactive command. */
export interface Question {
  readonly key: string;
  readonly prompt: string;
  /** The answer taken when the user just presses Enter. */
  readonly fallback: string;
  /** Why an answer is refused (in the question's own terms), or null when it is fine. */
  readonly check: (answer: string) => string | null;
}

/** The user pressed Ctrl-C or Ctrl-D (or the input ended) at a question. */
export class PromptCancelled extends Error {
  override readonly name = 'PromptCancelled';
}

/**
 * Asks each question in turn and checks every answer when it is given: a
 * refused answer prints its reason and the question is asked again, so nothing
 * typed before is lost. Ctrl-C (which readline receives as a key on a
 * terminal) and Ctrl-D on an empty line reject with PromptCancelled.
 */
export async function askQuestions(
  questions: readonly Question[],
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): Promise<Record<string, string>> {
  if (questions.length === 0) return {};
  const rl = createInterface({ input, output });
  let cancel: (() => void) | null = null;
  let cancelled = false;
  const stop = () => {
    cancelled = true;
    cancel?.();
  };
  rl.on('SIGINT', stop);
  rl.on('close', stop);
  // Without a terminal for the prompts (stderr redirected), Ctrl-C arrives as a real signal instead.
  process.on('SIGINT', stop);
  const ask = (prompt: string) =>
    new Promise<string>((resolve, reject) => {
      if (cancelled) return reject(new PromptCancelled());
      cancel = () => reject(new PromptCancelled());
      rl.question(prompt, (answer) => {
        cancel = null;
        resolve(answer.trim());
      });
    });
  const answers: Record<string, string> = {};
  try {
    for (const question of questions) {
      for (;;) {
        const answer = (await ask(question.prompt)) || question.fallback;
        const problem = question.check(answer);
        if (problem === null) {
          answers[question.key] = answer;
          break;
        }
        output.write(`  ${problem}\n`);
      }
    }
    return answers;
  } finally {
    process.off('SIGINT', stop);
    rl.off('close', stop);
    rl.close();
  }
}
