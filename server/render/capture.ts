import type { Page, ScreenshotOptions } from 'puppeteer-core';
import { BadInputError, TargetFailedError } from '../errors/index.js';

export type ImageFormat = 'png' | 'jpeg' | 'webp';

export interface Clip {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface CaptureOptions {
  format: ImageFormat | 'pdf';
  /** JPEG/WebP quality 1–100. */
  quality: number;
  fullPage: boolean;
  clip?: Clip;
  selector?: string;
  /** Device scale factor in use (bounds the full-page height). */
  scale: number;
}

/** Chromium cannot paint a bitmap taller than this many device pixels. */
const maxBitmapHeight = 16_384;

/** Captures taken again when the page navigated away under the first. */
const NAVIGATION_RETRIES = 2;

/** Errors of a capture whose document went away mid-way: the page navigated (a script reload or redirect). */
const navigatedAway = /Execution context was destroyed|Cannot find context with specified id|frame (got|was) detached|Node is detached from document/i;

/**
 * Captures once the page holds still: when it navigates during the capture, waits for the
 * new document and captures that; a page that never stops navigating is the target's
 * failure (502), not ours.
 */
export async function captureSettled(page: Page, opts: CaptureOptions): Promise<Buffer> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await capturePage(page, opts);
    } catch (err) {
      if (!navigatedAway.test((err as Error).message ?? '')) throw err;
      if (attempt >= NAVIGATION_RETRIES) {
        throw new TargetFailedError(
          'the page kept navigating while it was captured (a script reloads or redirects it); capture the page it ends on, or use delay or js to let it settle',
        );
      }
      await page.waitForNavigation({ waitUntil: 'domcontentloaded', timeout: 5_000 }).catch(() => undefined); // it may have arrived already
    }
  }
}

/** Encodes the page (or an element, or a region) in the format asked for; Chromium encodes. */
async function capturePage(page: Page, opts: CaptureOptions): Promise<Buffer> {
  if (opts.format === 'pdf') {
    if (opts.fullPage) await loadLazyContent(page);
    return toBuffer(await page.pdf({ printBackground: true, format: 'A4', timeout: 30_000 }));
  }
  const encoding: ScreenshotOptions = {
    type: opts.format,
    ...(opts.format === 'png' ? {} : { quality: opts.quality }),
    optimizeForSpeed: true,
  };
  // A region asked for (an element, a clip) is what the caller wants, whatever the page default.
  if (opts.selector) return toBuffer(await captureElement(page, opts.selector, encoding));
  if (opts.clip) {
    const clip = opts.clip;
    // A region below the fold shows what a reader scrolling there would see: lazy images loaded.
    if (await page.evaluate((bottom: number) => bottom > window.innerHeight, clip.y + clip.height)) await loadLazyContent(page);
    return toBuffer(await page.screenshot({ ...encoding, clip, captureBeyondViewport: true }));
  }
  if (opts.fullPage) {
    await loadLazyContent(page);
    const { width, height } = await page.evaluate(() => ({
      width: document.documentElement.clientWidth || window.innerWidth,
      height: Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0),
    }));
    const cap = Math.floor(maxBitmapHeight / opts.scale);
    if (height > cap) {
      return toBuffer(await page.screenshot({ ...encoding, clip: { x: 0, y: 0, width, height: cap }, captureBeyondViewport: true }));
    }
    return toBuffer(await page.screenshot({ ...encoding, fullPage: true }));
  }
  return toBuffer(await page.screenshot(encoding));
}

async function captureElement(page: Page, selector: string, encoding: ScreenshotOptions) {
  const element = await page.$(selector).catch(() => {
    throw new BadInputError(`selector is not a valid CSS selector: ${JSON.stringify(selector)}`);
  });
  if (!element) throw new BadInputError(`selector: no element matches ${JSON.stringify(selector)}`);
  const box = await element.boundingBox();
  if (!box || box.width < 1 || box.height < 1) {
    throw new BadInputError(`selector: the element ${JSON.stringify(selector)} is not visible (it has no box to capture)`);
  }
  return element.screenshot(encoding);
}

/**
 * Scrolls through the page once so lazy-loaded images and infinite-scroll sections load,
 * then returns to the top and waits (bounded) for the images.
 */
async function loadLazyContent(page: Page) {
  const fits = await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight);
  if (fits) return; // nothing below the fold
  await page.evaluate(async (maxY: number) => {
    const step = Math.max(200, window.innerHeight);
    for (let y = step; y < Math.min(document.documentElement.scrollHeight, maxY); y += step) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 60));
    }
    window.scrollTo(0, 0);
  }, 30_000);
  await page
    .waitForFunction(() => Array.from(document.images).every((img) => img.complete), { timeout: 3_000 })
    .catch(() => undefined); // a slow image must not fail the capture
  await page.waitForNetworkIdle({ idleTime: 150, timeout: 2_000 }).catch(() => undefined);
}

const toBuffer = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength);
