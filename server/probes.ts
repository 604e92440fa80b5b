import express from 'express';
import type { Redis } from 'ioredis';
import type { BrowserPool } from './render/browser-pool.js';
import { timeBound } from './time-bounds.js';

/** The process's lifecycle as the probes report it; `main.ts` sets `draining` on SIGTERM. */
export interface Lifecycle {
  draining: boolean;
}

export interface ProbeDeps {
  redis: Redis;
  browser: BrowserPool;
  lifecycle: Lifecycle;
}

/** Longest a readiness check waits for one part; a first browser launch takes about a second. */
const CHECK_MS = 5_000;

/**
 * Probes for orchestrators, apart from `/api/health` (which stays 200 while Redis is away, so a
 * load balancer keeps the instances that explain their 503s):
 * - `GET /livez`: the process answers; restart it when this fails.
 * - `GET /readyz`: Redis answers, the browser can render, and the process is not draining;
 *   503 otherwise, so traffic leaves this instance (during a drain, before the process stops).
 * No key, no limits, no notice: orchestrators call them every few seconds.
 */
export function probeRouter(deps: ProbeDeps): express.Router {
  const router = express.Router();
  router.get('/livez', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const draining = deps.lifecycle.draining;
    const [redis, browser] = await Promise.all([
      timeBound(deps.redis.ping().then(() => true, () => false), CHECK_MS),
      draining ? Promise.resolve(true) : timeBound(deps.browser.canRender(), CHECK_MS),
    ]);
    const ready = !draining && redis === true && browser === true;
    res
      .status(ready ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({
        status: ready ? 'ready' : 'not ready',
        draining,
        redis: redis ? 'ok' : 'unavailable',
        browser: browser ? 'ok' : 'unavailable',
      });
  });
  return router;
}
