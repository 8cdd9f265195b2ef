import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { repoRoot } from './paths.js';

// A screenshot kept in the repository (docs/images/) and the page as it renders now, compared pixel by pixel in the
// browser that took it (its canvas decodes PNG; no image library needed). Two runs on one machine give the same
// pixels; the slack allows a renderer that rounds a shade differently, while a changed number in a line of text
// (a port, a duration) already moves over a thousand pixels. UPDATE_GOLDEN=1 writes the new picture, as for the
// other goldens.

/** At most this many pixels may differ by more than `channelSlack` in a colour channel. */
const pixelsAllowed = 20;
const channelSlack = 24;

/** 'same', or why not (the new picture is then written beside the test output). */
export async function compareScreenshot(browser: Browser, picture: Buffer, file: string): Promise<string> {
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, picture);
    return 'same';
  }
  const actual = path.join(repoRoot, '.test-out', 'screenshots', path.basename(file));
  mkdirSync(path.dirname(actual), { recursive: true });
  writeFileSync(actual, picture);
  if (!existsSync(file)) return `${path.relative(repoRoot, file)} is missing; the page as shown now: ${actual}`;
  const page = await browser.newPage();
  try {
    const result = await page.evaluate(
      async ([kept, now, slack]) => {
        const decode = async (base64: string) => {
          const image = new Image();
          image.src = `data:image/png;base64,${base64}`;
          await image.decode();
          const canvas = document.createElement('canvas');
          canvas.width = image.width;
          canvas.height = image.height;
          const context = canvas.getContext('2d');
          if (context === null) throw new Error('no 2d canvas');
          context.drawImage(image, 0, 0);
          return context.getImageData(0, 0, image.width, image.height);
        };
        const [a, b] = [await decode(kept), await decode(now)];
        if (a.width !== b.width || a.height !== b.height)
          return { size: `${a.width}x${a.height} kept, ${b.width}x${b.height} now`, differing: 0, total: 0 };
        let differing = 0;
        for (let i = 0; i < a.data.length; i += 4) {
          for (let c = 0; c < 3; c++)
            if (Math.abs((a.data[i + c] ?? 0) - (b.data[i + c] ?? 0)) > slack) {
              differing++;
              break;
            }
        }
        return { size: '', differing, total: a.width * a.height };
      },
      [readFileSync(file).toString('base64'), picture.toString('base64'), channelSlack] as const,
    );
    if (result.size !== '') return `the size differs (${result.size}); the page as shown now: ${actual}`;
    if (result.differing > pixelsAllowed)
      return `${result.differing} of ${result.total} pixels differ; the page as shown now: ${actual}`;
    return 'same';
  } finally {
    await page.close();
  }
}
