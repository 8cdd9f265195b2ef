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
