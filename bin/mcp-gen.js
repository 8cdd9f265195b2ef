#!/usr/bin/env node
// The CLI lives in src/cli; this file only starts it from the compiled output: the bundle of it
// (scripts/bundle-cli.mjs) when a build made one after the last compile, else the compiled modules.
import { statSync } from 'node:fs';

function builtAt(file) {
  return statSync(new URL(file, import.meta.url), { throwIfNoEntry: false })?.mtimeMs ?? -1;
}

const bundled = builtAt('../dist/bundle/cli.js') >= builtAt('../dist/cli/index.js');
const { runCli } = await import(bundled ? '../dist/bundle/cli.js' : '../dist/cli/index.js');
process.exitCode = await runCli(process.argv);
