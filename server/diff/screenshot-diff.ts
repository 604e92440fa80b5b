import { BadInputError, DomainError } from '../errors/index.js';
import { captureScreenshot, type ScreenshotDeps, type ScreenshotOptions } from '../render/screenshot.js';
import { diffPngs } from './pixel-diff.js';
import type { TargetHeaders } from '../net/target-headers.js';

export interface ScreenshotDiffOptions {
  baselineUrl: string;
  candidateUrl: string;
  /** @default 1280 */
  width: number;
  /** @default 720 */
  height: number;
  /** @default true */
  fullPage: boolean;
  /** pixelmatch colour threshold 0–1. @default 0.1 */
  threshold: number;
  /** ms to wait before each capture. @default 0 */
  delay: number;
  /** @default false */
  blockAds: boolean;
  /** CSS selectors hidden (visibility: hidden) before capture, for dynamic content. */
  hideSelectors: string[];
  /** Headers for the candidate's origin only (a protected preview); both captures send them there and nowhere else. */
  targetHeaders?: TargetHeaders;
}

export interface ScreenshotDiffResult {
  width: number;
  height: number;
  changedPixels: number;
  /** changed ÷ (width × height), 6 decimals. */
  changedRatio: number;
  baselineStatus: number | null;
  candidateStatus: number | null;
  images: { baseline: Buffer; candidate: Buffer; diff: Buffer };
}

/** Renders both URLs at the same viewport and compares them pixel by pixel. */
export async function screenshotDiff(opts: ScreenshotDiffOptions, deps: ScreenshotDeps): Promise<ScreenshotDiffResult> {
  const capture = (url: string, field: string) =>
    captureScreenshot(renderOptions(url, opts), deps).catch((err: unknown) => {
      if (!(err instanceof DomainError)) throw err;
      const selectorError = /hide_selectors: .*/.exec(err.message);
      if (selectorError) throw new BadInputError(selectorError[0]);
      // Same error, named for the side that failed.
      err.message = `${field}: ${err.message}`;
      throw err;
    });
  // Both settle before either failure is reported: when both sides fail it is the baseline's
  // failure that is named, whichever came first, so a caller can tell "broken on the candidate
  // only" (a comparison's regression) from "broken on both".
  const [b, c] = await Promise.allSettled([capture(opts.baselineUrl, 'baseline_url'), capture(opts.candidateUrl, 'candidate_url')]);
  if (b.status === 'rejected') throw b.reason;
  if (c.status === 'rejected') throw c.reason;
  const [baseline, candidate] = [b.value, c.value];
  const diff = await diffPngs(baseline.body, candidate.body, { threshold: opts.threshold });
  return {
    width: diff.width,
    height: diff.height,
    changedPixels: diff.changedPixels,
    changedRatio: Math.round((diff.changedPixels / (diff.width * diff.height)) * 1e6) / 1e6,
    baselineStatus: baseline.targetStatus,
    candidateStatus: candidate.targetStatus,
    images: { baseline: baseline.body, candidate: candidate.body, diff: diff.diffPng },
  };
}

function renderOptions(url: string, opts: ScreenshotDiffOptions): ScreenshotOptions {
  return {
    url,
    width: opts.width,
    height: opts.height,
    fullPage: opts.fullPage,
    format: 'png',
    quality: 80,
    darkMode: false,
    scale: 1,
    delay: opts.delay,
    blockAds: opts.blockAds,
    js: opts.hideSelectors.length ? hideScript(opts.hideSelectors) : undefined,
    targetHeaders: opts.targetHeaders,
  };
}

/**
 * A style sheet hiding the selectors, so elements the page inserts later stay hidden too.
 * Each selector is tried first: an invalid one fails the request naming it, rather than
 * silently voiding the whole rule.
 */
function hideScript(selectors: string[]): string {
  return `const sels = ${JSON.stringify(selectors)};
for (const s of sels) {
  try { document.querySelector(s); } catch { throw new Error('hide_selectors: not a valid CSS selector: ' + JSON.stringify(s)); }
}
const style = document.createElement('style');
style.textContent = sels.map((s) => s + ' { visibility: hidden !important; }').join('\\n');
(document.head ?? document.documentElement).append(style);`;
}
