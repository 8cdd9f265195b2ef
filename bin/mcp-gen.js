#!/usr/bin/env node
// The CLI lives in src/cli; this file only starts it from the compiled output: the bundle of it
// (scripts/bundle-cli.mjs) when a build made one after the last compile, else the compiled modules.
import { statSync } from 'node:fs';

function builtAt(file) {
  return statSync(new URL(file, import.meta.url), { throwIfNoEntry: false })?.mtimeMs ?? -1;
}

// A reader that stops early (`mcp-gen --help | head -3`) closes the pipe: stop quietly, as other command-line tools
// do, instead of a stack trace for an 'error' event nobody handles.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });

const bundled = builtAt('../dist/bundle/cli.js') >= builtAt('../dist/cli/index.js');
const { runCli } = await import(bundled ? '../dist/bundle/cli.js' : '../dist/cli/index.js');
process.exitCode = await runCli(process.argv);
