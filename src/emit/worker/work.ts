/**
 * The part of emit that may run on a worker thread: compiling the validators (ajv standalone) and the types
 * (json-schema-to-typescript). Both are pure and the slowest emitters of a large manifest (GitHub's description:
 * about a second each), and neither needs what the other files do. What goes in and out is plain data (structured
 * clone keeps the shared schema objects shared, which the validators rely on), and the code is the same on either
 * thread, so the output is the same bytes wherever each piece ran.
 */
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { reusingCompile } from '../types/compile.js';
import { compileTypeUnits, type TypeUnit } from '../types/index.js';
import { emitValidators, type ToolSchemas } from '../validators/index.js';

/** What the banner of a generated file needs from the emit context (templates stay on the main thread). */
export type WorkContext = Pick<EmitContext, 'manifestPath' | 'regenerateCommand' | 'mcpGenVersion'>;

export interface EmitWork {
  readonly types: readonly Pick<TypeUnit, 'name' | 'schema'>[];
  readonly tools: readonly ToolSchemas[];
  readonly shared: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  readonly ctx: WorkContext;
}

export interface EmitWorkResult {
  /** The compiled text of each of `types`, in order. */
  readonly typeTexts: readonly string[];
  readonly validators: GeneratedFile;
}

/** All of `work` on this thread. */
export async function runEmitWork(work: EmitWork): Promise<EmitWorkResult> {
  const typeTexts = await compileTypeUnits(work.types);
  return { typeTexts, validators: await emitValidatorsOf(work) };
}

export function emitValidatorsOf(work: EmitWork): Promise<GeneratedFile> {
  return emitValidators(work.tools, { ...work.ctx, templates: new Map() }, work.shared);
}

/**
 * Compiles the type units two threads share: each claims the next unclaimed index from `next` (a counter in shared
 * memory) until none is left, so whichever thread is free takes the next unit. Returns the texts it compiled, by index.
 */
export async function compileClaimed(
  units: readonly Pick<TypeUnit, 'name' | 'schema'>[],
  next: Int32Array,
): Promise<Map<number, string>> {
  const compile = reusingCompile();
  const texts = new Map<number, string>();
  for (let i = Atomics.add(next, 0, 1); i < units.length; i = Atomics.add(next, 0, 1)) {
    const unit = units[i] as Pick<TypeUnit, 'name' | 'schema'>;
    texts.set(i, await compile(unit.schema, unit.name));
  }
  return texts;
}

/** The worker thread's share (src/worker/entry.ts): the validators, then type units claimed from `next`. */
export async function runClaimedEmitWork(
  work: EmitWork & { readonly next: Int32Array },
): Promise<{ validators: GeneratedFile; typeTexts: Map<number, string> }> {
  const validators = await emitValidatorsOf(work);
  return { validators, typeTexts: await compileClaimed(work.types, work.next) };
}
