import { createRequire } from 'node:module';
import type HandlebarsModule from 'handlebars';
import runtimeModule from 'handlebars/runtime.js';
import type { EmitContext } from './files.js';

// One private Handlebars instance: no HTML escaping (it corrupts Markdown) and strict mode, so a
// field missing from a view model is an error instead of a silent blank. The build precompiles the
// package's templates with these options (scripts/build-templates.mjs), so a run needs only
// Handlebars' runtime; the compiler is loaded only for a template that differs from its precompiled source.
const options = { noEscape: true, strict: true };
// handlebars/runtime declares no types of its own: it is the full API without the compiler.
const HandlebarsRuntime = runtimeModule as unknown as typeof HandlebarsModule;
const runtime = HandlebarsRuntime.create();
const compiled = new Map<string, HandlebarsModule.TemplateDelegate>();
const require = createRequire(import.meta.url);

interface Precompiled {
  readonly source: string;
  readonly spec: Parameters<typeof HandlebarsRuntime.template>[0];
}

let precompiled: Readonly<Record<string, Precompiled>> | undefined;
let compiler: typeof HandlebarsModule | undefined;

function precompiledTemplates(): Readonly<Record<string, Precompiled>> {
  try {
    precompiled ??= require('./precompiled-templates.cjs') as Record<string, Precompiled>;
  } catch {
    precompiled = {};
  }
  return precompiled;
}

function compileTemplate(name: string, source: string): HandlebarsModule.TemplateDelegate {
  const built = precompiledTemplates()[name];
  if (built !== undefined && built.source === source) return runtime.template(built.spec);
  compiler ??= (require('handlebars') as typeof HandlebarsModule).create();
  return compiler.compile(source, options);
}

/** Renders the package template `name` with a view model prepared in code. */
export function renderTemplate(ctx: EmitContext, name: string, view: object): string {
  let template = compiled.get(name);
  if (template === undefined) {
    const source = ctx.templates.get(name);
    if (source === undefined) throw new Error(`missing template ${name}`);
    template = compileTemplate(name, source);
    compiled.set(name, template);
  }
  return template(view);
}
