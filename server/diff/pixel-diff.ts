import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import type { PixelDiffTask, PixelDiffTaskResult } from './pixel-diff-worker.js';
import { workerModule } from '../worker-module.js';

export interface PixelDiffOptions {
  /** pixelmatch colour threshold, 0 (strict) to 1. @default 0.1 */
  threshold: number;
}

export interface PixelDiff {
  /** Size of the compared area: the larger of the two images on each axis. */
  width: number;
  height: number;
  /** Differing pixels, padding included. */
  changedPixels: number;
  /** Changed pixels in red over a faded copy of the baseline; padding in red. */
  diffPng: Buffer;
}

const red = { r: 255, g: 0, b: 0, alpha: 1 };

/**
 * Compares two PNGs. When their sizes differ, both are padded to the larger size and every
 * padding pixel counts as changed (a page that grew or shrank is a change).
 */
export async function diffPngs(baseline: Buffer, candidate: Buffer, opts: PixelDiffOptions): Promise<PixelDiff> {
  const [metaA, metaB] = await Promise.all([sharp(baseline).metadata(), sharp(candidate).metadata()]);
  const width = Math.max(metaA.width, metaB.width);
  const height = Math.max(metaA.height, metaB.height);
  const common = { left: 0, top: 0, width: Math.min(metaA.width, metaB.width), height: Math.min(metaA.height, metaB.height) };
  const rawCommon = (png: Buffer) => sharp(png).ensureAlpha().extract(common).raw().toBuffer();
  const [a, b] = await Promise.all([rawCommon(baseline), rawCommon(candidate)]);

  const { changed, diff } = await runInWorker({ a, b, width: common.width, height: common.height, threshold: opts.threshold });
  const padding = width * height - common.width * common.height;
  const diffPng = await sharp(diff, { raw: { width: common.width, height: common.height, channels: 4 } })
    .extend({ right: width - common.width, bottom: height - common.height, background: red })
    .png()
    .toBuffer();
  return { width, height, changedPixels: changed + padding, diffPng };
}

/** pixelmatch takes ~100 ms per 10 MP: off the event loop, in a short-lived worker thread. */
function runInWorker(task: PixelDiffTask): Promise<PixelDiffTaskResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerModule(import.meta.url, 'pixel-diff-worker'), { workerData: task });
    worker.once('message', (result: PixelDiffTaskResult) => resolve(result));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`pixel diff worker exited with code ${code}`));
    });
  });
}
