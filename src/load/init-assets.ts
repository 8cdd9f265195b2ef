import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseDocument, type Node } from 'yaml';
import { manifestDefaults } from '../model/defaults.js';
import { generatedDir, sourceDir } from '../model/layout.js';
import { compareText } from '../util/compare.js';

/** Starting points of `mcp-gen init`. */
export const initExamples = ['blank', 'demo', 'notes', 'calendar', 'files', 'library'] as const;
export type InitExample = (typeof initExamples)[number];

/** The files a new project starts from: the manifest and, for examples, the user-owned sources. */
export interface InitAssets {
  readonly manifest: string;
  /** Sources under src/ (handlers, shared modules, main.ts; never src/generated) by project-relative path. */
  readonly handlers: ReadonlyMap<string, string>;
  /** What the example's own code imports besides mcp-gen's pins (e.g. `pg`), from its package.json. */
  readonly dependencies: StarterDependencies;
}

/** Packages a starting point's handlers need, by section of package.json; exact pins. */
export interface StarterDependencies {
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
}

const noDependencies: StarterDependencies = { dependencies: {}, devDependencies: {} };

/** The example's dependencies as its package.json lists them, without mcp-gen itself (init decides that one). */
function readDependencies(file: URL): StarterDependencies {
  if (!existsSync(file)) return noDependencies;
  const json = JSON.parse(readFileSync(file, 'utf8')) as Partial<Record<string, Record<string, string>>>;
  const section = (name: string) =>
    Object.fromEntries(Object.entries(json[name] ?? {}).filter(([dependency]) => dependency !== 'mcp-gen'));
  return { dependencies: section('dependencies'), devDependencies: section('devDependencies') };
}

const packageRoot = new URL('../../', import.meta.url);

function readTree(root: string, prefix: string, into: Map<string, string>): void {
  if (!existsSync(root)) return;
  for (const name of readdirSync(root).sort(compareText)) {
    const full = path.join(root, name);
    if (`${prefix}${name}` === generatedDir) continue; // owned by mcp-gen: the new project generates its own
    if (statSync(full).isDirectory()) readTree(full, `${prefix}${name}/`, into);
    else if (name.endsWith('.ts')) into.set(`${prefix}${name}`, readFileSync(full, 'utf8'));
  }
}

/** Reads the manifest (and handlers) a new project starts from. */
export function loadInitAssets(example: InitExample): InitAssets {
  if (example === 'blank')
    return {
      manifest: readFileSync(new URL('templates/init/mcp.yaml', packageRoot), 'utf8'),
      handlers: new Map(),
      dependencies: noDependencies,
    };
  const dir = new URL(`examples/${example}/`, packageRoot);
  const handlers = new Map<string, string>();
  readTree(path.join(dir.pathname, sourceDir), `${sourceDir}/`, handlers);
  return {
    manifest: readFileSync(new URL('mcp.yaml', dir), 'utf8'),
    handlers,
    dependencies: readDependencies(new URL('package.json', dir)),
  };
}

/**
 * The starting manifest with the choices of `init` applied: the schema comment
 * pointing into node_modules, the server name, and the transports. Each change
 * replaces only the text of the YAML node it concerns, so comments, alignment
 * and quoting of everything else stay exactly as in the example.
 */
export function customizeManifest(
  text: string,
  choices: {
    name: string | undefined;
    transport: 'stdio' | 'http' | 'both' | undefined;
    legacy?: 'serve' | 'reject' | undefined;
  },
): string {
  let out = text.replace(
    /^# yaml-language-server: \$schema=.*$/m,
    '# yaml-language-server: $schema=node_modules/mcp-gen/schema/manifest.schema.json',
  );
  const edits: { from: number; to: number; text: string }[] = [];
  const doc = parseDocument(out);
  const name = doc.getIn(['server', 'name'], true) as Node | undefined;
  if (choices.name !== undefined && name?.range)
    edits.push({ from: name.range[0], to: name.range[1], text: choices.name });
  const legacy = doc.getIn(['protocol', 'legacy'], true) as Node | undefined;
  if (choices.legacy !== undefined && legacy?.range)
    edits.push({ from: legacy.range[0], to: legacy.range[1], text: choices.legacy });
  if (choices.transport !== undefined) {
    const http = doc.getIn(['transports', 'http'], true) as Node | undefined;
    const httpText = http?.range
      ? out.slice(http.range[0], http.range[1]).trim()
      : `{ host: ${manifestDefaults.httpHost}, port: ` +
        `${manifestDefaults.httpPort}, path: ${manifestDefaults.httpPath} }`;
    const lines = [
      ...(choices.transport !== 'http' ? ['  stdio: {}'] : []),
      ...(choices.transport !== 'stdio'
        ? [`  http: ${httpText.includes('\n') ? `\n${httpText.replace(/^/gm, '    ')}` : httpText}`]
        : []),
    ];
    const transports = doc.get('transports', true) as Node | undefined;
    if (transports?.range) {
      const flow = out.slice(transports.range[0], transports.range[1]).trimStart().startsWith('{');
      const parts = lines.map((l) =>
        l
          .trim()
          .replace(/:\s*\n\s*/, ': ')
          .replace(/\n\s*/g, ' '),
      );
      edits.push({
        from: transports.range[0],
        to: transports.range[1],
        text: flow ? `{ ${parts.join(', ')} }\n` : `${lines.join('\n').trimStart()}\n`,
      });
    } else out = out.replace(/(\n(?:tools|resources|prompts):)/, `\ntransports:\n${lines.join('\n')}$1`);
  }
  for (const edit of edits.sort((a, b) => b.from - a.from)) {
    out = out.slice(0, edit.from) + edit.text + out.slice(edit.to);
  }
  // A starting point without protocol.legacy gets one, after every positioned edit is applied.
  if (choices.legacy !== undefined && legacy === undefined) {
    out = doc.has('protocol')
      ? out.replace(/(\nprotocol:\n)/, `$1  legacy: ${choices.legacy}\n`)
      : out.replace(/(\n(?:transports|tools):)/, `\nprotocol:\n  legacy: ${choices.legacy}$1`);
  }
  return out.replace(/\n{3,}/g, '\n\n');
}
