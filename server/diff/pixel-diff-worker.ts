/**
 * Worker thread: runs pixelmatch on two equally sized RGBA buffers. Self-contained (imports
 * only packages) so it loads both under tsx and under Node's own type stripping.
 */
import { parentPort, workerData } from 'node:worker_threads';
import pixelmatch from 'pixelmatch';

export interface PixelDiffTask {
  a: Uint8Array;
  b: Uint8Array;
  width: number;
  height: number;
  threshold: number;
}

export interface PixelDiffTaskResult {
  changed: number;
  diff: Uint8Array;
}

const task = workerData as PixelDiffTask;
const diff = new Uint8Array(task.width * task.height * 4);
const changed = pixelmatch(task.a, task.b, diff, task.width, task.height, { threshold: task.threshold });
parentPort?.postMessage({ changed, diff } satisfies PixelDiffTaskResult, [diff.buffer]);
