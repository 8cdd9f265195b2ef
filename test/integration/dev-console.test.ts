import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from '../support/approval-browser.js';
import { type Dev, initProject, startDev, stopDev, until } from '../support/dev-process.js';
import { repoRoot } from '../support/paths.js';

// The console of `mcp-gen dev` in headless Chromium, as a user works with it: the demo's `add` called from its form,
// a handler save and a manifest save followed with no reload by hand, and the notes example's destructive tool
// approved in the page after a draft handle the console kept from another tool.

const work = path.join(repoRoot, '.test-out', 'dev-console');
const _cli = path.join(repoRoot, 'bin', 'mcp-gen.js');
const token = 'console-test-token-0123456789';
const env = { PATH: process.env.PATH ?? '', NOTES_TOKENS: `${token}=me:notes.read,notes.write` };

/** Fills the form of `tool` (fields by name) and calls it; resolves with its structured result as shown. */
async function call(page: Page, tool: string, fields: Readonly<Record<string, string>>): Promise<string> {
  const form = page.locator(`form.tool[data-tool="${tool}"]`);
  for (const [name, value] of Object.entries(fields)) await form.locator(`[name="${name}"]`).fill(value);
  const result = page.locator(`section.result[data-tool="${tool}"]`);
  const shown = result.locator('pre.structured');
  const before = (await shown.count()) > 0 ? ((await shown.textContent()) ?? '') : '';
  await form.getByRole('button', { name: 'Call' }).click();
  await expect
    .poll(async () => ((await shown.count()) > 0 ? await shown.textContent() : null), { timeout: 30_000 })
    .not.toBe(before === '' ? null : before);
  return (await result.locator('pre.structured').textContent()) ?? '';
}

let browser: Browser;
const devs: Dev[] = [];

beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  browser = await openBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  for (const dev of devs) await stopDev(dev);
});

describe('the dev console', () => {
  it('calls add from its form, follows a handler save and a new tool without a reload', async () => {
    const project = initProject(work, 'demo', 'demo', env);
    const dev = await startDev(project, env);
    devs.push(dev);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(dev.console);
    expect(await call(page, 'add', { a: '2', b: '3' })).toBe('{\n  "sum": 5\n}');
    // "Copy as client code" runs as written, against the same server.
    const snippet = await page.locator('#history li.entry details.client pre').first().textContent();
    writeFileSync(path.join(project, 'copied.mjs'), snippet ?? '');
    const copied = spawnSync(process.execPath, ['copied.mjs'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 60_000,
      env,
    });
    expect(copied.stderr).toBe('');
    expect(JSON.parse(copied.stdout).structuredContent).toEqual({ sum: 5 });

    const handler = path.join(project, 'src', 'handlers', 'tools', 'add.ts');
    const builds = dev.builds();
    writeFileSync(handler, readFileSync(handler, 'utf8').replace('input.a + input.b', 'input.a + input.b + 100'));
    await until(() => dev.builds() > builds, 'the rebuild after the handler save', dev.output);
    // The values typed before the rebuild are still in the form.
    expect(await page.locator('form.tool[data-tool="add"] [name="a"]').inputValue()).toBe('2');
    expect(await call(page, 'add', {})).toBe('{\n  "sum": 105\n}');

    const manifest = path.join(project, 'mcp.yaml');
    const shout = [
      '  shout:',
      '    title: Shout',
      '    description: Returns the text in capitals.',
      '    annotations: { readOnlyHint: true, openWorldHint: false }',
      '    input:',
      '      type: object',
      // Field names that are also members of a form: the console's code must not take the fields for them.
      '      properties:',
      '        text: { type: string, maxLength: 200 }',
      '        elements: { type: string, maxLength: 20 }',
      '        querySelector: { type: string, maxLength: 20 }',
      '      required: [text]',
      '      additionalProperties: false',
      '',
    ].join('\n');
    const text = readFileSync(manifest, 'utf8');
    writeFileSync(manifest, text.replace(/^tools:\n/m, `tools:\n${shout}`));
    await page.locator('form.tool[data-tool="shout"]').waitFor({ timeout: 60_000 });
    const form = page.locator('form.tool[data-tool="shout"]');
    await form.locator('[name="text"]').fill('hi');
    await form.locator('[name="elements"]').fill('e');
    await form.getByRole('button', { name: 'Call' }).click();
    await expect
      .poll(() => page.locator('section.result[data-tool="shout"] pre.text').textContent(), { timeout: 30_000 })
      .toBe('The tool "shout" is not implemented yet.');
    await expect.poll(() => page.locator('#review').textContent()).toMatch(/tools\/list: \d+ tokens/);
    expect(errors).toEqual([]);
  }, 240_000);

  it("approves the notes example's destructive tool in the page, with the draft handle it kept", async () => {
    const dev = await startDev(initProject(work, 'notes', 'notes', env), env);
    devs.push(dev);
    const page = await browser.newPage();
    await page.goto(dev.console);
    expect(await call(page, 'start_note_draft', { title: 'Weekly sync' })).toContain('"draft": "h1.');
    const publish = page.locator('form.tool[data-tool="publish_note_draft"]');
    // The handle start_note_draft returned is offered to the tool that takes it.
    expect(await publish.locator('[name="draft"]').inputValue()).toMatch(/^h1\./);
    await publish.getByRole('button', { name: 'Call' }).click();
    const question = page.locator('section.result[data-tool="publish_note_draft"] form.question');
    await question.waitFor();
    expect(await question.locator('.message').textContent()).toContain('Publish a note draft');
    // The approval form asks for a confirmation box to be ticked, as a person does.
    for (const box of await question.locator('input[type="checkbox"]').all()) await box.check();
    await question.getByRole('button', { name: 'Accept' }).click();
    const result = page.locator('section.result[data-tool="publish_note_draft"] pre.text');
    await expect.poll(() => result.textContent().catch(() => '')).not.toBe('');
    const shown = page.locator('section.result[data-tool="publish_note_draft"]');
    expect(await shown.locator('p.error').allTextContents()).toEqual([]);
    expect(await shown.locator('ol.steps li').allTextContents()).toHaveLength(3);

    // completion/complete as a template's variable and a prompt's argument are typed, offered in a datalist.
    const offered = async (form: string, field: string, typed: string) => {
      const input = page.locator(`${form} [name="${field}"]`);
      await input.fill(typed);
      const list = page.locator(`datalist#${await input.getAttribute('list')} option`);
      await expect.poll(() => list.count(), { timeout: 30_000 }).toBeGreaterThan(0);
      return list.evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    };
    expect(await offered('form.prompt[data-prompt="summarize_note"]', 'tone', 'fo')).toEqual(['formal']);
    expect(await offered('form.template[data-template="notes://notes/{id}"]', 'id', 'wel')).toEqual(['welcome']);
  }, 240_000);
});
