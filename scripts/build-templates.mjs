// Precompiles the package's Handlebars templates (templates/**/*.hbs) into one CommonJS module,
// dist/emit/shared/precompiled-templates.cjs, so that a run renders DESIGN.md and README.md with
// Handlebars' small runtime instead of loading its compiler (src/emit/shared/handlebars.ts). Each
// entry keeps its source: a template edited since the build no longer matches and is compiled as before.
// Runs after tsc in `npm run build`, with the options handlebars.ts compiles with.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import Handlebars from 'handlebars';

const root = new URL('../templates/', import.meta.url);
const options = { noEscape: true, strict: true };

function templateNames(dir, prefix) {
  return readdirSync(new URL(dir, root), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) =>
      entry.isDirectory()
        ? templateNames(`${dir}${entry.name}/`, `${prefix}${entry.name}/`)
        : entry.name.endsWith('.hbs')
          ? [`${prefix}${entry.name}`]
          : [],
    );
}

const entries = templateNames('', '').map((name) => {
  const source = readFileSync(new URL(name, root), 'utf8');
  const spec = Handlebars.precompile(source, options);
  return `  ${JSON.stringify(name)}: { source: ${JSON.stringify(source)}, spec: ${spec} },`;
});
const dir = new URL('../dist/emit/shared/', import.meta.url);
mkdirSync(dir, { recursive: true });
writeFileSync(
  new URL('precompiled-templates.cjs', dir),
  `'use strict';\nmodule.exports = {\n${entries.join('\n')}\n};\n`,
);
