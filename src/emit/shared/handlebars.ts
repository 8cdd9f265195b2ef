import Handlebars from 'handlebars';
import type { EmitContext } from './files.js';

// One private Handlebars instance: no HTML escaping (it corrupts Markdown) and strict mode, so a
// field missing from a view model is an error instead of a silent blank.
const handlebars = Handlebars.create();
const compiled = new Map<string, Handlebars.TemplateDelegate>();

/** Renders the package template `name` with a view model prepared in code. */
export function renderTemplate(ctx: EmitContext, name: string, view: object): string {
  let template = compiled.get(name);
  if (template === undefined) {
    const source = ctx.templates.get(name);
    if (source === undefined) throw new Error(`missing template ${name}`);
    template = handlebars.compile(source, { noEscape: true, strict: true });
    compiled.set(name, template);
  }
  return template(view);
}
