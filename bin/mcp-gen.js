#!/usr/bin/env node
// The CLI lives in src/cli; this file only starts it from the compiled output.
import { runCli } from '../dist/cli/index.js';

process.exitCode = await runCli(process.argv);
