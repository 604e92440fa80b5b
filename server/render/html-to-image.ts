import type { TargetPolicy } from '../net/target-policy.js';
import type { RenderPages } from './browser-pool.js';
import { captureSettled, type ImageFormat } from './capture.js';

export interface HtmlToImageOptions {
  html: string;
  /** @default 800 */
  width: number;
  /** @default 600 */
  height: number;
  /** @default png */
  format: ImageFormat;
  /** @default 1 */
  scale: 1 | 2 | 3;
  /** JPEG/WebP quality. @default 80 */
  quality: number;
  darkMode: boolean;
}

export interface HtmlToImageDeps {
  pool: RenderPages;
  /** Rules for what the HTML may load (fonts, images); file: and private addresses never. */
  policy: TargetPolicy;
  /** Cap of loading the HTML's resources. @default 15000 */
  loadTimeoutMs?: number;
}

/** Renders posted HTML at width×height (× scale) once its fonts and images are in. */
export async function htmlToImage(opts: HtmlToImageOptions, deps: HtmlToImageDeps): Promise<Buffer> {
  const loadTimeout = deps.loadTimeoutMs ?? 15_000;
  return deps.pool.withPage({ policy: deps.policy, timeoutMs: loadTimeout + 30_000 }, async (page) => {
    await page.setViewport({ width: opts.width, height: opts.height, deviceScaleFactor: opts.scale });
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: opts.darkMode ? 'dark' : 'light' }]);
    // JavaScript stays on: posted HTML may draw with it, and the page is as isolated as any target.
    await page.setContent(opts.html, { waitUntil: 'load', timeout: loadTimeout }).catch((err: Error) => {
      if (err.name !== 'TimeoutError') throw err; // a slow resource: capture what arrived
    });
    await page
      .waitForFunction(
        async () => {
          await document.fonts.ready;
          return Array.from(document.images).every((img) => img.complete);
        },
        { timeout: 5_000 },
      )
      .catch(() => undefined); // a stalled image must not fail the render
    return captureSettled(page, { format: opts.format, quality: opts.quality, fullPage: false, scale: opts.scale });
  });
}
