import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/paths.js';
import { compileExample } from './support.js';

// The client-side approval script of docs/handlers.md, run as written against the notes example: the
// official client answers the server's input_required through its elicitation handler and the tool runs.
describe('docs/handlers.md: answering an approval from a client', () => {
  it('the script publishes a draft after approving it', () => {
    const doc = readFileSync(path.join(repoRoot, 'docs', 'handlers.md'), 'utf8');
    const section = doc.slice(doc.indexOf('### Answering an approval from a client'));
    const script = /^```js\n([\s\S]*?)^```$/m.exec(section)?.[1] ?? '';
    expect(script).toContain("setRequestHandler('elicitation/create'");
    const entry = compileExample('notes', 'approval-doc');
    // Inside the repository, so the script's imports resolve to the client mcp-gen tests with.
    const dir = path.join(repoRoot, '.test-out', 'approval-doc');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'approve.mjs'), script);
    const run = spawnSync(process.execPath, [path.join(dir, 'approve.mjs'), entry], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(run.status, run.stderr).toBe(0);
    const [question, answer] = run.stdout.trim().split('\n');
    expect(question).toMatch(
      /^Approve running "Publish a note draft" \(publish_note_draft\) with arguments \{"draft":/,
    );
    expect(answer).toMatch(/^Published "Launch" as notes:\/\/notes\//);
  });
});
