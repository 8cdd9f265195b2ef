/**
 * The report's "Context cost" section: what each tool costs in `tools/list`, the default surface against
 * `review.maxListTokens`, and every documented host limit with whether the default surface fits it.
 */
import { hostLimits, type HostLimits } from '../../model/host-limits.js';
import { envPrefix } from '../../model/naming.js';
import type { ServerModel } from '../../model/types.js';
import { heaviestFirst, type Review } from '../../review/index.js';
import { cell, code, table } from '../shared/markdown.js';

/** Rows of the per-tool table; a larger design shows its heaviest tools and sums up the rest. */
const shownTools = 25;

export function contextSection(model: ServerModel, review: Review) {
  const { context } = review;
  const count = context.listed.length;
  const heaviest = heaviestFirst(context.tools);
  const rows = heaviest.slice(0, shownTools).map((t) => [code(t.name), String(t.tokens), String(t.bytes)]);
  const rest = heaviest.slice(shownTools);
  if (rest.length > 0) {
    const tokens = rest.reduce((sum, t) => sum + t.tokens, 0);
    const bytes = rest.reduce((sum, t) => sum + t.bytes, 0);
    rows.push([`${rest.length} more tools`, String(tokens), String(bytes)]);
  }
  return {
    summary:
      context.surface === null
        ? `${review.cost.tokens} tokens (${review.cost.bytes} bytes of compact JSON for ${count} ` +
          `tool${count === 1 ? '' : 's'} / 4, rounded up), against a budget of ${model.review.maxListTokens} ` +
          `tokens (\`review.maxListTokens\`)` +
          (count === model.tools.length
            ? ''
            : `; every tool: ${context.all.tokens} tokens (${context.all.bytes} bytes)`)
        : `${review.cost.tokens} tokens (${review.cost.bytes} bytes of compact JSON / 4, rounded up), against a ` +
          `budget of ${model.review.maxListTokens} tokens (\`review.maxListTokens\`): with \`discovery: search\`, ` +
          `tools/list lists only ${context.surface.map((t) => `\`${t.name}\` (${t.tokens} tokens)`).join(' and ')}. ` +
          `The ${count} tool${count === 1 ? '' : 's'} they search by default would cost ${context.plain.tokens} ` +
          `tokens listed as they are; each tool's share below is what \`search_tools\` returns for it`,
    tools: model.tools.length === 0 ? '' : table(['tool', 'tokens', 'bytes'], rows),
    schemas:
      context.schemas.length === 0
        ? ''
        : `Heaviest schemas: ${context.schemas.map((s) => `${code(s.tool)} ${s.part} ${s.bytes} bytes`).join(', ')}.`,
    pruned:
      context.pruned.length === 0
        ? ''
        : 'Schemas pruned at import to fit a client (their budget is in docs/import.md): each pruned part accepts ' +
          'any members; name the members a model needs to check them again.\n\n' +
          table(
            ['tool', 'schema', 'pruned components'],
            context.pruned.map((p) => [code(p.tool), p.part, cell(p.components.join(', '))]),
          ),
    selection: selectionText(model, review),
    toolsets:
      model.toolsets.length === 0
        ? ''
        : table(
            ['toolset', 'default', 'tools', 'tokens', 'bytes', 'for'],
            model.toolsets.map((set, i) => {
              const cost = context.toolsets[i];
              return [
                code(set.name),
                cost?.default === true ? 'yes' : 'no',
                String(set.tools.length),
                String(cost?.tokens ?? 0),
                String(cost?.bytes ?? 0),
                cell(set.description),
              ];
            }),
          ),
    hosts: table(
      ['host', 'limits', 'target', 'default surface', 'source'],
      hostLimits.map((host) => {
        const broken = context.breaks.filter((b) => b.host === host.id);
        return [
          `${cell(host.name)} (${code(host.id)})`,
          cell(limitText(host)),
          model.review.hosts.includes(host.id) ? 'yes' : 'no',
          broken.length === 0 ? 'fits' : cell(broken.map((b) => b.message.replace(/^[^:]*: /, '')).join('; ')),
          cell(host.source),
        ];
      }),
    ),
  };
}

function limitText(host: HostLimits): string {
  return [
    host.maxTools === null ? '' : `at most ${host.maxTools} tools`,
    host.maxNameLength === null
      ? ''
      : `names of at most ${host.maxNameLength} characters${host.nameWithServer ? ' with the server name' : ''}`,
    host.namePattern === null ? '' : `names matching ${host.namePattern}`,
    host.maxPageBytes === null ? '' : `a tools/list response line of at most ${host.maxPageBytes} bytes`,
  ]
    .filter((t) => t !== '')
    .join('; ');
}

/** How a deployment and a request choose the tools, with this server's variable names. */
function selectionText(model: ServerModel, review: Review): string {
  const prefix = envPrefix(model.server.name);
  const readOnly = model.tools.filter((t) => t.readOnly).length;
  const total = model.tools.length;
  const mount = `\`${prefix}_READ_ONLY=1\` lists and serves only the read-only tools (${readOnly} of ${total}).`;
  if (model.toolsets.length === 0) return mount;
  const core = model.tools.filter((t) => t.toolsets.length === 0).length;
  const marked = model.toolsets.filter((t) => t.default).map((t) => code(t.name));
  const { http } = model.transports;
  return (
    `A deployment chooses toolsets with \`${prefix}_TOOLSETS\` (names separated by commas, or \`all\`); without it, ` +
    `${marked.length === 0 ? 'every toolset' : marked.join(', ')} (${review.context.listed.length} tools). ` +
    (core === 0 ? '' : `${core} tool${core === 1 ? ' is' : 's are'} in no toolset and always listed. `) +
    `${mount} Over HTTP a request may narrow the selection with the header \`Mcp-Toolsets\` (names separated by ` +
    'commas)' +
    (http === null
      ? ''
      : ` or, for a host that takes only a URL, the path \`${http.path.replace(/\/$/, '')}/x/<names>\``) +
    '; a tool outside the selection is unknown.'
  );
}
