import { allCodes, codeCatalog } from './codes.js';

/** `docs/diagnostics.md`, written from the catalog so the two cannot drift (a test compares them). */
export function renderCatalogMarkdown(): string {
  const lines = [
    '<!-- Written from src/diagnostics/codes.ts by `npm run docs`. Do not edit. -->',
    '# Diagnostics',
    '',
    'Every problem mcp-gen finds in a manifest is reported in one form that terminals and editors make clickable:',
    '',
    '```',
    'mcp.yaml:14:3: error [name-format] tool name "Get Weather" must match ^[A-Za-z0-9_.-]+$ ' +
      'and be at most 128 characters',
    '  at /tools/Get Weather',
    '  hint: use "get_weather"',
    '```',
    '',
    'All rules run on every call, so one run lists every mistake, sorted by line and column. Errors fail the run',
    '(exit code 1); warnings fail it only with `--strict`. A YAML syntax error stops the run early, since nothing',
    'after it can be trusted. Exit code 2 means a bug in mcp-gen, never a mistake in the manifest.',
    '',
    '| code | severity | title |',
    '|---|---|---|',
    ...allCodes.map(
      (code) => `| [\`${code}\`](#${code}) | ${codeCatalog[code].severity} | ${codeCatalog[code].title} |`,
    ),
    '',
  ];
  for (const code of allCodes) {
    const info = codeCatalog[code];
    lines.push(
      `## ${code}`,
      '',
      `**${info.title}** (${info.severity})`,
      '',
      `- Cause: ${info.cause}`,
      `- Fix: ${info.fix}`,
      '',
    );
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
