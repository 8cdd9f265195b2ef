import { createRequire } from 'node:module';
import { type Browser, chromium } from 'playwright-core';

// A person at the approval page: Debian's headless Chromium (installed by .ci/run), driven by playwright-core. The
// flags are those a root user on a closed network needs; nothing leaves 127.0.0.1.

/** Starts the browser; close it in afterAll. */
export function openBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * Opens the approval page at `link`, checks that it shows each of `shows` and clicks `button`: resolves with the
 * heading of the page that answers the decision.
 */
export async function decideInBrowser(
  browser: Browser,
  link: string,
  button: 'Approve' | 'Decline',
  shows: readonly string[] = [],
): Promise<string> {
  const page = await browser.newPage();
  try {
    await page.goto(link);
    const text = (await page.locator('main').textContent()) ?? '';
    const missing = shows.filter((expected) => !text.includes(expected));
    if (missing.length > 0) throw new Error(`the approval page does not show ${missing.join(', ')}: ${text}`);
    await page.getByRole('button', { name: button }).click();
    await page.waitForLoadState();
    return (await page.locator('h1').textContent()) ?? '';
  } finally {
    await page.close();
  }
}

/** What axe-core finds on the page at `link`: the ids of the rules it violates (WCAG 2.1 A and AA, best practices). */
export async function accessibilityViolations(browser: Browser, link: string): Promise<string[]> {
  // The page's policy admits no script at all; the checker alone is let in, in a context of its own.
  const context = await browser.newContext({ bypassCSP: true });
  try {
    const page = await context.newPage();
    await page.goto(link);
    await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
    return await page.evaluate(async () => {
      const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string }[] }> } }).axe;
      return (await axe.run()).violations.map((violation) => violation.id);
    });
  } finally {
    await context.close();
  }
}

/** The page's width at a phone's viewport (375 CSS pixels): more means a reader must scroll sideways. */
export async function widthOnPhone(browser: Browser, link: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 375, height: 700 }, isMobile: true });
  try {
    const page = await context.newPage();
    await page.goto(link);
    return await page.evaluate(() => document.documentElement.scrollWidth);
  } finally {
    await context.close();
  }
}
