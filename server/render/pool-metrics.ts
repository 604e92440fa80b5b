import client from 'prom-client';
import type { BrowserPool } from './browser-pool.js';

/** Pool gauges in an app's registry; values are read from the pool at scrape time. */
export function registerPoolMetrics(registry: client.Registry, pool: BrowserPool) {
  const gauge = (name: string, help: string, read: () => number) =>
    new client.Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  gauge('browser_pages_open', 'Browser pages (incognito contexts) open now', () => pool.stats().open);
  gauge('browser_pool_capacity', 'Pages the browser pool may hold open at once (BROWSER_CONCURRENCY)', () => pool.stats().capacity);
  gauge('browser_queue_length', 'Renders waiting for a free page', () => pool.stats().queued);
  gauge('browser_renders', 'Renders started since the process began', () => pool.stats().renders);
  gauge('browser_launches', 'Browser launches since the process began (crashes and recycling relaunch)', () => pool.stats().launches);
}
