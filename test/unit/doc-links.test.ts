import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths.js';

// docs/manifest.md linked to #auth, #secrets and #store after those sections had gone: a reader who followed the
// link landed at the top of the page. Every relative link of the README and the docs names a file that exists and,
// with a #fragment into a Markdown file, a heading of that file (GitHub's anchors: lower case, punctuation dropped,
// spaces as hyphens, a repeated heading numbered -1, -2, ...).

const documents = [
  'README.md',
  ...readdirSync(path.join(repoRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
].sort();

/** The text outside fenced blocks, where headings and links are Markdown. */
const prose = (text: string): string => text.replace(/^```[\s\S]*?^```$/gm, '');

function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of prose(readFileSync(path.join(repoRoot, file), 'utf8')).matchAll(/^#{1,6} (.+)$/gm)) {
    const anchor = anchorOf(match[1] ?? '');
    const count = seen.get(anchor) ?? 0;
    seen.set(anchor, count + 1);
    anchors.add(count === 0 ? anchor : `${anchor}-${count}`);
  }
  return anchors;
}

function brokenLinks(file: string): string[] {
  // Inline code shows Markdown as text (`[link](url)`), so it holds no links.
  const text = prose(readFileSync(path.join(repoRoot, file), 'utf8')).replace(/`[^`\n]*`/g, '');
  const broken: string[] = [];
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const link = match[1] ?? '';
    if (/^[a-z]+:/.test(link)) continue;
    const [target = '', fragment] = link.split('#');
    const resolved = target === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
    if (!existsSync(path.join(repoRoot, resolved))) broken.push(`${link}: no file ${resolved}`);
    else if (fragment !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(fragment))
      broken.push(`${link}: no heading of ${resolved} has the anchor #${fragment}`);
  }
  return broken;
}

describe('links in the docs', () => {
  it('computes anchors as GitHub does', () => {
    expect(anchorOf('Validating: `mcp-gen validate`')).toBe('validating-mcp-gen-validate');
    expect(anchorOf('`$handle: <kind>`')).toBe('handle-kind');
    expect(anchorOf('The contract tests and your data')).toBe('the-contract-tests-and-your-data');
  });

  it.each(documents)('%s links only to files and headings that exist', (document) => {
    expect(brokenLinks(document)).toEqual([]);
  });
});
