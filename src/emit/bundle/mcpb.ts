/**
 * The MCP Bundle of a stdio server: `src/generated/mcpb-manifest.gen.json`, the bundle's manifest.json derived
 * from the model, and `src/generated/pack-mcpb.gen.mjs` (templates/project/pack-mcpb.gen.mjs), which stages it
 * with the built server and its production dependencies and has the official MCPB CLI pack them (`npm run
 * pack:mcpb`). A server without stdio gets neither: a desktop bundle is a process the host starts.
 */
import { environmentVariables, type EnvironmentVariable } from '../../model/environment.js';
import { generatedPaths } from '../../model/layout.js';
import type { PromptModel, ServerModel } from '../../model/types.js';
import { stableJson } from '../../util/stable-json.js';
import { tsBanner } from '../shared/banner.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { finalText } from '../shared/ts-text.js';

/**
 * The manifest version written: the CLI's default for new bundles, the newest one it does not call a work in
 * progress (0.3 and 0.4 are), and one every host that reads 0.3 reads too.
 */
export const mcpbManifestVersion = '0.2';

/** An MCPB `user_config` option. */
interface UserConfigOption {
  readonly type: 'string' | 'number' | 'boolean';
  readonly title: string;
  readonly description: string;
  readonly required: boolean;
  readonly sensitive?: true;
  readonly default?: string | number | boolean;
}

/**
 * The variables a desktop user is asked for: every `config` variable, and those of the runtime's own that a
 * stdio server needs (the Redis URL). The signing keys are optional over stdio (an ephemeral key then) and the
 * bearer tokens are read only over HTTP, so neither is asked.
 */
function askedVariables(model: ServerModel): EnvironmentVariable[] {
  return environmentVariables(model).filter((v) => !v.httpOnly && (v.origin === 'config' || v.required));
}

/** `NOTES_API_URL` -> `notes_api_url`: the key `${user_config.KEY}` names; environment names are unique. */
const userConfigKey = (variable: EnvironmentVariable): string => variable.name.toLowerCase();

function userConfigOption(model: ServerModel, variable: EnvironmentVariable): UserConfigOption {
  const type = { string: 'string', url: 'string', integer: 'number', number: 'number', boolean: 'boolean' } as const;
  // The typed default, not its text: a secret has none (environment.ts never shows one).
  const declared = model.config.find((c) => c.name === variable.name)?.default ?? null;
  return {
    type: type[variable.type],
    title: variable.name,
    description: variable.description,
    required: variable.required,
    ...(variable.secret ? { sensitive: true as const } : {}),
    ...(declared === null || variable.secret ? {} : { default: declared }),
  };
}

/** A prompt's fixed messages as one MCPB prompt text, `{{argument}}` written as MCPB's `${arguments.argument}`. */
function promptText(prompt: PromptModel): string {
  const messages = prompt.messages ?? [];
  return messages.map((m) => m.text.replace(/\{\{\s*([A-Za-z0-9_-]+)\s*\}\}/g, '$${arguments.$1}')).join('\n\n');
}

/** Who the bundle names as its author until package.json's `author` says (the pack script puts that in). */
function defaultAuthor(model: ServerModel): { name: string } {
  const owner = /^io\.github\.([^/]+)\//.exec(model.registry?.name ?? '')?.[1];
  return { name: owner ?? model.server.name };
}

/** The bundle's manifest.json, or null for a server without stdio. */
export function mcpbManifest(model: ServerModel): Record<string, unknown> | null {
  if (model.transports.stdio === null) return null;
  const asked = askedVariables(model);
  const env = Object.fromEntries(asked.map((v) => [v.name, `\${user_config.${userConfigKey(v)}}`]));
  // A prompt whose messages a handler builds has no fixed text: the host is told the server lists its prompts.
  const generatedPrompts = model.prompts.some((p) => p.messages === null);
  const repository = model.registry?.repository ?? null;
  return {
    manifest_version: mcpbManifestVersion,
    name: model.server.name,
    ...(model.server.title === null ? {} : { display_name: model.server.title }),
    version: model.server.version,
    description: model.server.description ?? model.server.title ?? model.server.name,
    author: defaultAuthor(model),
    ...(repository === null ? {} : { repository: { type: 'git', url: repository } }),
    server: {
      type: 'node',
      entry_point: 'dist/server.mjs',
      mcp_config: {
        command: 'node',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: MCPB's own placeholder, expanded by the host
        args: ['${__dirname}/dist/server.mjs'],
        ...(asked.length === 0 ? {} : { env }),
      },
    },
    ...(model.tools.length === 0
      ? {}
      : { tools: model.tools.map((t) => ({ name: t.name, description: t.description })) }),
    ...(model.prompts.length === 0
      ? {}
      : {
          prompts: model.prompts.map((p) => ({
            name: p.name,
            ...(p.description === null ? {} : { description: p.description }),
            ...(p.arguments.length === 0 ? {} : { arguments: p.arguments.map((a) => a.name) }),
            text: promptText(p),
          })),
        }),
    ...(generatedPrompts ? { prompts_generated: true } : {}),
    compatibility: { platforms: ['darwin', 'linux', 'win32'], runtimes: { node: '>=20.0.0' } },
    ...(asked.length === 0
      ? {}
      : { user_config: Object.fromEntries(asked.map((v) => [userConfigKey(v), userConfigOption(model, v)])) }),
  };
}

/** The bundle's manifest and its pack script, for a stdio server; nothing otherwise. */
export function emitMcpb(model: ServerModel, ctx: EmitContext): GeneratedFile[] {
  const manifest = mcpbManifest(model);
  if (manifest === null) return [];
  const template = 'project/pack-mcpb.gen.mjs';
  const text = ctx.templates.get(template);
  if (text === undefined) throw new Error(`project template ${template} is missing`);
  return [
    { path: generatedPaths.mcpbManifest, contents: stableJson(manifest), ownership: 'generated' },
    {
      path: generatedPaths.packScript,
      contents: finalText(`${tsBanner(ctx)}\n${text}`),
      ownership: 'generated',
      copiedFrom: template,
    },
  ];
}
