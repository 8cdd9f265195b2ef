/**
 * The report's "Context cost" section: what each tool costs in `tools/list`, the default surface against
 * `review.maxListTokens`, and every documented host limit with whether the default surface fits it.
 */
import { hostLimits, type HostLimits } from '../../model/host-limits.js';
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
      `${review.cost.tokens} tokens (${review.cost.bytes} bytes of compact JSON for ${count} ` +
      `tool${count === 1 ? '' : 's'} / 4, rounded up), against a budget of ${model.review.maxListTokens} ` +
      `tokens (\`review.maxListTokens\`)` +
      (count === model.tools.length ? '' : `; every tool: ${context.all.tokens} tokens (${context.all.bytes} bytes)`),
    tools: model.tools.length === 0 ? '' : table(['tool', 'tokens', 'bytes'], rows),
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
    host.maxPageBytes === null ? '' : `a tools/list page of at most ${host.maxPageBytes} bytes`,
  ]
    .filter((t) => t !== '')
    .join('; ');
}
