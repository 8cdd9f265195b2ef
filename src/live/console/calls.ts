/**
 * The console's requests: each tool call, read or prompt runs in a session of its own (live/call.ts) whose questions
 * (an approval's `input_required` round trip) are handed to the page as steps. A POST waits for the request's next
 * step: the server's question, or the result; the page's answer resumes the same request. A request nobody answers is
 * declined after `answerMs`, so an abandoned page never keeps a server request open.
 */
import { randomBytes } from 'node:crypto';
import { CallError, callTool, getPrompt, readResource } from '../call.js';
import type { Answer, Question, SessionTarget } from '../session.js';
import type { Copies } from './copy-as.js';

/** What a console request did next. */
export type Step =
  | { readonly kind: 'question'; readonly call: string; readonly question: Question }
  | {
      readonly kind: 'result';
      readonly result: unknown;
      readonly failed: boolean;
      readonly copies: Copies;
      readonly log: readonly string[];
      readonly elapsedMs: number;
    }
  | { readonly kind: 'error'; readonly message: string; readonly code: number | null };

/** One request: what it is, how to show it as a command line, and how to run it with a given answerer. */
export interface Request {
  readonly copies: Copies;
  readonly run: (
    target: SessionTarget,
    ask: (question: Question) => Promise<Answer>,
  ) => Promise<{
    readonly result: unknown;
    readonly failed: boolean;
  }>;
}

/** The server's stderr lines, for the lines a request's time span saw. */
export interface LogTap {
  readonly mark: () => number;
  readonly since: (mark: number) => readonly string[];
}

const answerMs = 10 * 60_000;
const maxPending = 20;

interface Pending {
  /** Resolves the POST that waits for the request's next step. */
  waiter: ((step: Step) => void) | null;
  /** Resumes the request with the page's answer, while a question waits. */
  answer: ((answer: Answer) => void) | null;
}

export function toolRequest(name: string, args: Readonly<Record<string, unknown>>, copies: Copies): Request {
  return {
    copies,
    run: (target, ask) => callTool(target, name, { json: JSON.stringify(args), pairs: [] }, () => ask),
  };
}

export function readRequest(uri: string, copies: Copies): Request {
  return { copies, run: (target, ask) => readResource(target, uri, () => ask) };
}

export function promptRequest(name: string, args: Readonly<Record<string, string>>, copies: Copies): Request {
  const pairs = Object.entries(args).map(([key, value]) => `${key}=${value}`);
  return { copies, run: (target, ask) => getPrompt(target, name, pairs, () => ask) };
}

/** The requests under way, each waiting for the page's answer or for its server. */
export class ConsoleCalls {
  private readonly pending = new Map<string, Pending>();

  constructor(
    readonly target: () => SessionTarget,
    private readonly log: LogTap,
  ) {}

  /** Starts `request`; resolves at its first step. */
  start(request: Request): Promise<Step> {
    if (this.pending.size >= maxPending)
      return Promise.resolve({ kind: 'error', message: 'too many requests wait for an answer', code: null });
    const id = randomBytes(12).toString('base64url');
    const started = Date.now();
    const mark = this.log.mark();
    const entry: Pending = { waiter: null, answer: null };
    this.pending.set(id, entry);
    const emit = (step: Step): void => {
      const waiter = entry.waiter;
      entry.waiter = null;
      waiter?.(step);
    };
    const ask = (question: Question): Promise<Answer> =>
      new Promise((resolve) => {
        const timer = setTimeout(() => entry.answer?.({ action: 'decline' }), answerMs);
        entry.answer = (answer) => {
          clearTimeout(timer);
          entry.answer = null;
          resolve(answer);
        };
        emit({ kind: 'question', call: id, question });
      });
    const first = new Promise<Step>((resolve) => (entry.waiter = resolve));
    request
      .run(this.target(), ask)
      .then(
        ({ result, failed }): Step => ({
          kind: 'result',
          result,
          failed,
          copies: request.copies,
          log: this.log.since(mark),
          elapsedMs: Date.now() - started,
        }),
        (error: unknown): Step => ({ kind: 'error', message: messageOf(error), code: codeOf(error) }),
      )
      .then((step) => {
        this.pending.delete(id);
        emit(step);
      });
    return first;
  }

  /** The page's answer to request `id`'s question; resolves at the request's next step. */
  answer(id: string, answer: Answer): Promise<Step> {
    const entry = this.pending.get(id);
    const resume = entry?.answer;
    if (entry === undefined || resume == null || entry.waiter !== null)
      return Promise.resolve({ kind: 'error', message: 'no question of that request waits for an answer', code: null });
    const next = new Promise<Step>((resolve) => (entry.waiter = resolve));
    resume(answer);
    return next;
  }
}

function messageOf(error: unknown): string {
  if (error instanceof CallError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

function codeOf(error: unknown): number | null {
  const code = /answered (-?\d+):/.exec(error instanceof Error ? error.message : '')?.[1];
  return code === undefined ? null : Number(code);
}
