import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dev, initProject, startDev, stopDev } from '../support/dev-process.js';
import { repoRoot } from '../support/paths.js';

// The console of `mcp-gen dev` in Debian's headless Firefox ESR (installed by .ci/run), as dev-console.test.ts uses it
// in Chromium: the demo's `add` called from the keyboard, the notes example's destructive tool approved in the page.
// playwright-core cannot drive a stock Firefox (its BiDi path sends commands Firefox ESR lacks, its own protocol needs
// a patched build), so puppeteer-core does, over WebDriver BiDi; it downloads no browser.

const work = path.join(repoRoot, '.test-out', 'dev-console-firefox');
const _cli = path.join(repoRoot, 'bin', 'mcp-gen.js');
const token = 'console-test-token-0123456789';
const env = { PATH: process.env.PATH ?? '', NOTES_TOKENS: `${token}=me:notes.read,notes.write` };
const bound = { timeout: 30_000 };

/** The text of the first element at `selector`, or null while there is none. */
function textAt(page: Page, selector: string): Promise<string | null> {
  return page.evaluate((css) => document.querySelector(css)?.textContent ?? null, selector);
}

/** Waits (bounded) until the text at `selector` is there and passes `done`; resolves with it. */
async function waitForText(page: Page, selector: string, done: (text: string) => boolean): Promise<string> {
  for (let i = 0; i < 150; i++) {
    const text = await textAt(page, selector);
    if (text !== null && done(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${selector}; it shows ${await textAt(page, selector)}`);
}

/** A console page at `link` that records what Firefox reports as an error and any request to a host but 127.0.0.1. */
async function openConsole(link: string): Promise<{ page: Page; errors: string[]; away: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  const away: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  // data: URLs stay in the browser (Firefox's own style sheet loads its list-bullet font as one); only a host counts.
  page.on('request', (request) => {
    const host = new URL(request.url()).hostname;
    if (host !== '' && host !== '127.0.0.1') away.push(request.url());
  });
  page.setDefaultTimeout(bound.timeout);
  await page.goto(link, { waitUntil: 'load' });
  return { page, errors, away };
}

let browser: Browser;
let profile: string;
const devs: Dev[] = [];

beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  // A fresh profile per run: nothing a person's Firefox remembers (or an earlier run left) changes the page.
  profile = mkdtempSync(path.join(tmpdir(), 'mcp-gen-firefox-'));
  browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: '/usr/bin/firefox-esr',
    headless: true,
    userDataDir: profile,
    timeout: 60_000,
    protocolTimeout: 60_000,
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  for (const dev of devs) await stopDev(dev);
  if (profile) rmSync(profile, { recursive: true, force: true });
});

describe('the dev console in Firefox', () => {
  it('calls add from its form with the keyboard', async () => {
    const dev = await startDev(initProject(work, 'demo', 'demo', env), env);
    devs.push(dev);
    const { page, errors, away } = await openConsole(dev.console);
    const form = 'form.tool[data-tool="add"]';
    await page.locator(`${form} [name="a"]`).fill('2');
    // From the first field on, as a keyboard user goes: Tab to b, type, Tab to Call, Enter.
    await page.keyboard.press('Tab');
    await page.keyboard.type('3');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Call');
    await page.keyboard.press('Enter');
    const shown = await waitForText(page, `section.result[data-tool="add"] pre.structured`, (text) => text !== '');
    expect(shown).toBe('{\n  "sum": 5\n}');
    expect(errors).toEqual([]);
    expect(away).toEqual([]);
  }, 240_000);

  it("approves the notes example's destructive tool in the page, with the draft handle it kept", async () => {
    const dev = await startDev(initProject(work, 'notes', 'notes', env), env);
    devs.push(dev);
    const { page, errors, away } = await openConsole(dev.console);
    const start = 'form.tool[data-tool="start_note_draft"]';
    await page.locator(`${start} [name="title"]`).fill('Weekly sync');
    await page.locator(`${start} ::-p-aria([name="Call"][role="button"])`).click();
    const draft = await waitForText(page, 'section.result[data-tool="start_note_draft"] pre.structured', Boolean);
    expect(draft).toContain('"draft": "h1.');
    const publish = 'form.tool[data-tool="publish_note_draft"]';
    // The handle start_note_draft returned is offered to the tool that takes it.
    const handle = await page.$eval(`${publish} [name="draft"]`, (field) => (field as HTMLInputElement).value);
    expect(handle).toMatch(/^h1\./);
    await page.locator(`${publish} ::-p-aria([name="Call"][role="button"])`).click();
    const question = 'section.result[data-tool="publish_note_draft"] form.question';
    await page.waitForSelector(question, bound);
    expect(await textAt(page, `${question} .message`)).toContain('Publish a note draft');
    // The approval form asks for a confirmation box to be ticked, as a person does.
    for (const box of await page.$$(`${question} input[type="checkbox"]`)) {
      if (!(await box.evaluate((input) => (input as HTMLInputElement).checked))) await box.click();
    }
    await page.locator(`${question} ::-p-aria([name="Accept"][role="button"])`).click();
    const result = 'section.result[data-tool="publish_note_draft"]';
    await waitForText(page, `${result} pre.text`, Boolean);
    expect(await page.$$eval(`${result} p.error`, (nodes) => nodes.map((node) => node.textContent))).toEqual([]);
    expect(await page.$$eval(`${result} ol.steps li`, (nodes) => nodes.length)).toBe(3);
    expect(errors).toEqual([]);
    expect(away).toEqual([]);
  }, 240_000);
});
