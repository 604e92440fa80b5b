import type { HTTPResponse, Page } from 'puppeteer-core';
import { BadInputError, targetError } from '../errors/index.js';
import { openPage } from './open-page.js';
import type { TargetPolicy } from '../net/target-policy.js';
import type { TargetHeaders } from '../net/target-headers.js';
import type { AdBlocker } from './ad-blocker.js';
import type { BrowserPool, RenderOwner, RenderPages } from './browser-pool.js';
import type { Config } from '../config.js';
import { captureSettled, type ImageFormat, type Clip } from './capture.js';
import { viewportPresets, type ViewportName } from './viewports.js';
import { pause } from '../time-bounds.js';

/**
 * One default per option for every entry point (GET, batch, queue, diff). The contract's own
 * exceptions live in those entry points' schemas: batch captures the viewport (`full_page`
 * false) within 320–1920 × 240–1080, and the queue encodes WebP.
 */
export const screenshotDefaults = { width: 1280, height: 720, fullPage: true, format: 'png', quality: 80 } as const;

/** Viewport size range of GET /api/screenshot and the queue (contract: 3840×2160 at most). */
export const viewportRange = { width: { min: 100, max: 3840 }, height: { min: 100, max: 2160 } } as const;

export interface ScreenshotOptions {
  url: string;
  /** Preset overriding width and height. */
  viewport?: ViewportName;
  /** @default 1280 */
  width: number;
  /** @default 720 */
  height: number;
  /** The whole page rather than the viewport; a `clip` or `selector` region is captured instead. @default true */
  fullPage: boolean;
  /** Crop region in CSS px of the page; wins over fullPage. */
  clip?: Clip;
  /** @default png */
  format: ImageFormat | 'pdf';
  /** JPEG/WebP quality. @default 80 */
  quality: number;
  darkMode: boolean;
  /** Device scale factor; unset: the preset's own, else 1. */
  scale?: 1 | 2 | 3;
  selector?: string;
  /** ms to wait before capture. */
  delay: number;
  blockAds: boolean;
  /** Script run in the page before capture. */
  js?: string;
  waitFor?: string;
  auth?: { username: string; password: string };
  /** Headers sent to one origin only (protected previews; the url's, or a diff's candidate's); see `net/target-headers.ts`. */
  targetHeaders?: TargetHeaders;
  acceptLanguage?: string;
}

export interface ScreenshotDeps {
  pool: RenderPages;
  policy: TargetPolicy;
  adBlocker: AdBlocker;
  /** Longest wait for the page's first document. @default 30000 */
  navigationTimeoutMs?: number;
  /** Longest wait for `waitFor`. @default 10000 */
  waitForTimeoutMs?: number;
  /** Cap of the whole render, on top of `delay`. @default 60000 */
  renderTimeoutMs?: number;
}

/** What an entry point (GET, batch, queue, diff) has, from which every screenshot gets the same settings. */
export interface ScreenshotSources {
  browser: BrowserPool;
  http: { policy: TargetPolicy };
  adBlocker: AdBlocker;
  config: Pick<Config, 'FETCH_TIMEOUT_MS' | 'RENDER_TIMEOUT_MS' | 'SCREENSHOT_WAIT_FOR_MS'>;
}

/** One set of render settings for every entry point: the same waits whoever asks; the render counts against `owner`'s share. */
export const screenshotDeps = ({ browser, http, adBlocker, config }: ScreenshotSources, owner: RenderOwner): ScreenshotDeps => ({
  pool: browser.as(owner),
  policy: http.policy,
  adBlocker,
  navigationTimeoutMs: config.FETCH_TIMEOUT_MS,
  renderTimeoutMs: config.RENDER_TIMEOUT_MS,
  waitForTimeoutMs: config.SCREENSHOT_WAIT_FOR_MS,
});

export interface ScreenshotResult {
  body: Buffer;
  contentType: string;
  /** HTTP status of the target's main document. */
  targetStatus: number | null;
  /** Device scale factor used. */
  scale: number;
}

/**
 * Renders `opts.url` in a leased page: emulate the device, navigate, run `js`, wait for
 * `wait_for`, wait `delay`, load lazy content, capture.
 */
export async function captureScreenshot(opts: ScreenshotOptions, deps: ScreenshotDeps): Promise<ScreenshotResult> {
  await deps.pool.checkTarget(deps.policy, opts.url).catch((err: unknown) => {
    throw targetError(err, new URL(opts.url).host); // as fetch mode words it
  });
  const preset = opts.viewport ? viewportPresets[opts.viewport] : undefined;
  const width = preset?.width ?? opts.width;
  const height = preset?.height ?? opts.height;
  const scale = opts.scale ?? preset?.deviceScaleFactor ?? 1;
  const navTimeout = deps.navigationTimeoutMs ?? 30_000;
  const timeoutMs = (deps.renderTimeoutMs ?? 60_000) + opts.delay;

  return deps.pool.withPage(
    { policy: deps.policy, timeoutMs, locale: opts.acceptLanguage, mobile: preset?.isMobile ?? false, targetHeaders: opts.targetHeaders },
    async (page) => {
      await page.setViewport({
        width,
        height,
        deviceScaleFactor: scale,
        isMobile: preset?.isMobile ?? false,
        hasTouch: preset?.hasTouch ?? false,
        isLandscape: width > height && (preset?.isMobile ?? false),
      });
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: opts.darkMode ? 'dark' : 'light' }]);
      if (opts.auth) await page.authenticate(opts.auth);
      if (opts.blockAds) await deps.adBlocker.enable(page);

      const response = await navigate(page, opts.url, navTimeout);
      if (opts.js) await runScript(page, opts.js);
      if (opts.waitFor) await waitForSelector(page, opts.waitFor, deps.waitForTimeoutMs ?? 10_000);
      if (opts.delay) await pause(opts.delay);

      const body = await captureSettled(page, {
        format: opts.format,
        quality: opts.quality,
        fullPage: opts.fullPage,
        clip: opts.clip,
        selector: opts.selector,
        scale,
      });
      return { body, contentType: contentTypes[opts.format], targetStatus: response?.status() ?? null, scale };
    },
  );
}

export const contentTypes = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  pdf: 'application/pdf',
} as const;

/**
 * Waits for the document (a failure here is the target's: 502/504), then, bounded, for the
 * load event and a quiet network, which a page with a slow tracker may never reach.
 */
async function navigate(page: Page, url: string, timeoutMs: number): Promise<HTTPResponse | null> {
  let inflight = 0;
  page.on('request', () => inflight++);
  page.on('requestfinished', () => inflight--);
  page.on('requestfailed', () => inflight--);
  const response = await openPage(page, url, { waitUntil: 'domcontentloaded', timeoutMs });
  await page
    .waitForFunction(() => document.readyState === 'complete', { timeout: Math.min(timeoutMs, 15_000) })
    .catch(() => undefined); // capture what there is
  // Late requests (lazy widgets, XHR after load): only pay the idle wait when some are open.
  if (inflight > 0) await page.waitForNetworkIdle({ idleTime: 250, timeout: 3_000 }).catch(() => undefined);
  return response;
}

async function runScript(page: Page, js: string) {
  try {
    // An async function body, so `await` works and `return` is allowed.
    await page.evaluate(`(async () => {\n${js}\n})()`);
  } catch (err) {
    const msg = ((err as Error).message ?? String(err)).split('\n')[0].slice(0, 300);
    throw new BadInputError(`js failed: ${msg}`);
  }
}

async function waitForSelector(page: Page, selector: string, timeoutMs: number) {
  try {
    await page.waitForSelector(selector, { timeout: timeoutMs });
  } catch (err) {
    if ((err as Error).name === 'TimeoutError') {
      throw new BadInputError(`wait_for: no element matched ${JSON.stringify(selector)} within ${timeoutMs} ms`);
    }
    throw new BadInputError(`wait_for is not a valid CSS selector: ${JSON.stringify(selector)}`);
  }
}
