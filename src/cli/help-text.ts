/**
 * What each command's `--help` prints after its options: examples, then the exit codes that command returns
 * (each list follows the command's code paths; a bad option is exit 1 and a bug exit 2 everywhere).
 */

/** The program's own list, which the commands that review or write a manifest share. */
const general = `
  0    success
  1    a user error: an error in the manifest, a warning under --strict, a bad option,
       stale files under generate --check, a gate FAIL or breaking change under check,
       a write the disk refused (nothing is changed), a tool's error result under call
  2    a bug in mcp-gen
  130  init stopped by Ctrl-C or Ctrl-D at a question (nothing is written)
`;

const bug = '  2    a bug in mcp-gen\n';
const unreached = 'a server that refuses the request or cannot be reached';
const notStarted = 'a server that cannot be reached or started';
const importFailures =
  '  1    --out exists (pass --force), an error in the draft, a write the disk refused, a bad option';

/** Exit codes by command; a command not listed prints the program's list. */
const exitCodes: Record<string, string> = {
  import: `
  0    the draft is written and reviewed (a gate FAIL is the review's verdict: still 0)
${importFailures},
       ${notStarted} (import server), a spec that cannot be read, or
       a conflict under --update (import openapi)
${bug}`,
  'import server': `
  0    the draft is written and reviewed (a gate FAIL is the review's verdict: still 0)
${importFailures},
       ${notStarted}
${bug}`,
  'import openapi': `
  0    the draft is written and reviewed (a gate FAIL is the review's verdict: still 0);
       under --update, the manifest is merged with no conflict
${importFailures},
       a spec that cannot be read; under --update, a conflict (the manifest is written,
       your value kept), or a manifest or import record that is missing or does not parse
${bug}`,
  verify: `
  0    no drift: the server matches the manifest
  1    drift (each difference is printed), an error in the manifest,
       ${notStarted}, a bad option
${bug}`,
  dev: `
  0    stopped by Ctrl-C (an error in the manifest or the code is printed, and dev waits
       for the next save)
  1    a port it cannot listen on, a bad --port or --console-port, a bad option
${bug}`,
  call: `
  0    the tool's result, printed as JSON
  1    the tool's error result (printed as JSON too), no dist/server.mjs and no --url, a bad
       argument, ${unreached}, a bad option
${bug}`,
  read: `
  0    the resource, printed as JSON
  1    no dist/server.mjs and no --url, ${unreached},
       a bad option
${bug}`,
  prompt: `
  0    the prompt, printed as JSON
  1    no dist/server.mjs and no --url, a bad argument,
       ${unreached}, a bad option
${bug}`,
  install: `
  0    the entry is written, printed (--print), or already there (nothing is changed)
  1    an unknown host, an error in the manifest, json without --file, a bad --env, a required
       setting without --env when no terminal can ask for it, a host file that is not a JSON
       object or that the disk refuses (the file is unchanged), a bad option
${bug}  130  stopped by Ctrl-C or Ctrl-D at a question (nothing is written)
`,
};

/** Examples shown by `--help`, per command (the program's help shows the first five commands'). */
const examples: Record<string, readonly string[]> = {
  init: ['mcp-gen init my-server', 'mcp-gen init my-server --example notes --transport both --yes'],
  validate: ['mcp-gen validate', 'mcp-gen validate path/to/mcp.yaml --format json --strict'],
  generate: [
    'mcp-gen generate',
    'mcp-gen generate --check            # in CI: exit 1 when generated files are stale',
    'mcp-gen generate --watch',
  ],
  check: ['mcp-gen check', 'mcp-gen check --baseline main       # also breaking changes against git ref "main"'],
  report: ['mcp-gen report', 'mcp-gen report --out - --format json'],
  'import server': [
    'mcp-gen import server http://127.0.0.1:3000/mcp --header "Authorization: Bearer $TOKEN"',
    'mcp-gen import server --out drafted.yaml -- node dist/server.mjs',
  ],
  'import openapi': [
    "mcp-gen import openapi petstore.json --exclude 'path:/admin/*' --overlay curate.yaml",
    'mcp-gen import openapi petstore.json --update      # merge a changed spec into mcp.yaml',
  ],
  verify: [
    'mcp-gen verify -- node dist/server.mjs',
    'mcp-gen verify http://127.0.0.1:3000/mcp --manifest path/to/mcp.yaml',
  ],
  dev: ['mcp-gen dev', 'mcp-gen dev path/to/mcp.yaml --port 3001'],
  call: [
    'mcp-gen call add --arg a=2 --arg b=3',
    'mcp-gen call search --json \'{"query":"x"}\' --url http://127.0.0.1:3000/mcp',
  ],
  read: ['mcp-gen read config://app', 'mcp-gen read config://app --url http://127.0.0.1:3000/mcp'],
  prompt: ["mcp-gen prompt code_review --arg language=python --arg code='print(1)'"],
  install: ['mcp-gen install claude-code', 'mcp-gen install vscode --print', 'mcp-gen install json --file hosts.json'],
};
examples.import = [...(examples['import server'] ?? []), ...(examples['import openapi'] ?? [])];

/** The help text after the options of `command` ("import server"), or of the program when it is null. */
export function helpAfter(command: string | null): string {
  const shown = command === null ? ['init', 'validate', 'generate', 'check', 'report'] : [command];
  const lines = shown.flatMap((c) => examples[c] ?? []).map((e) => `  $ ${e}`);
  return `\nExamples:\n${lines.join('\n')}\n\nExit codes:${(command === null ? null : exitCodes[command]) ?? general}`;
}
