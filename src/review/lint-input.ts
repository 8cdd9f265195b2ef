/**
 * Design lint rules on a tool's input schema: open objects, unbounded strings,
 * numbers and arrays, and secrets mirrored into HTTP headers; and the one
 * constructor of a lint finding that every rule uses.
 */
import type { Finding } from '../diagnostics/index.js';
import { walkSchema } from '../model/schema-walk.js';
import type { ToolModel } from '../model/types.js';
import { formatPointer } from '../util/json-pointer.js';
import { secretLooking } from '../model/secret-names.js';
import { patternBoundsLength } from './pattern-bound.js';

const secretName = /token|passw|secret|api_?key|credential|cookie|session|private_?key|auth/i;

/** A lint finding at `pointer`, with its hint when it has one. */
export function finding(
  code: Finding['code'],
  pointer: string,
  message: string,
  hint?: string,
  target: 'key' | 'value' = 'key',
): Finding {
  return hint === undefined
    ? { code, message, at: { pointer, target } }
    : { code, message, hint, at: { pointer, target } };
}

/** The findings of one tool's input schema, in schema order. */
export function lintInputSchema(tool: ToolModel): Finding[] {
  const out: Finding[] = [];
  walkSchema(tool.input, (node, path) => {
    if (typeof node.$handle === 'string') return;
    const pointer = `${tool.pointer}/input${formatPointer(path)}`;
    const where = path.length === 0 ? 'input' : `input ${formatPointer(path)}`;
    const types = Array.isArray(node.type) ? node.type : [node.type];
    const bounded = node.enum !== undefined || node.const !== undefined;
    if ((types.includes('object') || node.properties !== undefined) && node.additionalProperties !== false) {
      out.push(
        finding(
          'lint-open-schema',
          pointer,
          `tool "${tool.name}" ${where} accepts any extra property`,
          'add "additionalProperties: false"',
        ),
      );
    }
    const boundedText = typeof node.pattern === 'string' && patternBoundsLength(node.pattern);
    if (types.includes('string') && node.maxLength === undefined && !bounded && !boundedText) {
      out.push(
        finding(
          'lint-unbounded-string',
          pointer,
          `tool "${tool.name}" ${where} is a string without maxLength`,
          typeof node.pattern === 'string'
            ? 'add "maxLength": a "pattern" bounds it only anchored at both ends (^...$), with no *, + or {n,}'
            : 'add "maxLength"',
        ),
      );
    }
    if (types.includes('array') && node.maxItems === undefined) {
      out.push(
        finding(
          'lint-unbounded-array',
          pointer,
          `tool "${tool.name}" ${where} is an array without maxItems`,
          'add "maxItems"',
        ),
      );
    }
    if (
      (types.includes('number') || types.includes('integer')) &&
      !bounded &&
      ((node.minimum === undefined && node.exclusiveMinimum === undefined) ||
        (node.maximum === undefined && node.exclusiveMaximum === undefined))
    ) {
      out.push(
        finding(
          'lint-unbounded-number',
          pointer,
          `tool "${tool.name}" ${where} is a number without both minimum and maximum`,
          'add "minimum" and "maximum"',
        ),
      );
    }
    const header = node['x-mcp-header'];
    const name = path[path.length - 1];
    if (path[path.length - 2] === 'properties' && typeof name === 'string' && secretLooking(name))
      out.push(
        finding(
          'lint-secret-input',
          pointer,
          `tool "${tool.name}" asks the model for "${name}", which looks like a secret the model would have to hold`,
          'send credentials from a config variable (upstream.credentials for an http: tool, ctx.config in a handler)',
        ),
      );
    if (header !== undefined && typeof name === 'string' && secretName.test(name)) {
      out.push(
        finding(
          'lint-secret-header',
          `${pointer}/x-mcp-header`,
          `tool "${tool.name}" mirrors "${name}" into an HTTP header (x-mcp-header), where proxies log it`,
          'remove "x-mcp-header" from this property',
          'value',
        ),
      );
    }
  });
  return out;
}
