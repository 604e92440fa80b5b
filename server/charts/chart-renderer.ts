import { Piscina } from 'piscina';
import { BadInputError, OverLimitError } from '../errors/index.js';
import type { ChartTask, ChartTaskResult } from './chart-worker.js';
import { workerModule } from '../worker-module.js';

export type { ChartTask };

export interface ChartRenderer {
  /** Draws the chart off the event loop; 400 when Chart.js rejects the configuration. */
  render(task: ChartTask): Promise<Buffer>;
  stats(): { threads: number; queued: number };
  close(): Promise<void>;
}

export interface ChartRendererOptions {
  /** Worker threads. @default the number of cores */
  threads: number;
  /** Charts waiting for a thread before 429. @default threads × 32 */
  maxQueue?: number;
  /** Cap of one chart in ms. @default 20000 */
  timeoutMs?: number;
}

/**
 * Chart.js on @napi-rs/canvas in piscina worker threads. The thread pool starts on the
 * first chart, so services that never draw one pay nothing.
 */
export function createChartRenderer(opts: ChartRendererOptions): ChartRenderer {
  let pool: Piscina | undefined;
  const maxQueue = opts.maxQueue ?? opts.threads * 32;
  const getPool = () =>
    (pool ??= new Piscina({
      filename: workerModule(import.meta.url, 'chart-worker').href,
      minThreads: 1,
      maxThreads: opts.threads,
      maxQueue,
      idleTimeout: 60_000,
    }));

  return {
    async render(task) {
      const p = getPool();
      if (p.queueSize >= maxQueue) throw new OverLimitError('the chart queue is full; retry in 2 s', 2);
      const signal = AbortSignal.timeout(opts.timeoutMs ?? 20_000);
      let result: ChartTaskResult;
      try {
        result = (await p.run(sanitize(task), { signal })) as ChartTaskResult;
      } catch (err) {
        if ((err as Error).name === 'AbortError') {
          throw new BadInputError(`drawing the chart took longer than ${(opts.timeoutMs ?? 20_000) / 1000} s; send fewer data points or a smaller size`);
        }
        throw err;
      }
      if (!result.ok) throw new BadInputError(`invalid chart configuration: ${result.error}`);
      return Buffer.from(result.image.buffer, result.image.byteOffset, result.image.byteLength);
    },
    stats: () => ({ threads: pool?.threads.length ?? 0, queued: pool?.queueSize ?? 0 }),
    async close() {
      await pool?.destroy();
      pool = undefined;
    },
  };
}

/** Keys that could reach an object's prototype when Chart.js merges options. */
const pollutionKeys = new Set(['__proto__', 'constructor', 'prototype']);

/** A JSON-only deep copy without prototype keys; the config is data, nothing in it runs. */
function sanitize<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sanitize) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (!pollutionKeys.has(k)) out[k] = sanitize(v);
    return out as T;
  }
  return typeof value === 'function' ? (undefined as T) : value;
}
