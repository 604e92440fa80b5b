import type { Config } from '../config.js';
import type { KeyStore } from '../keys/key-store.js';
import type { Logger } from '../log.js';
import type { SafeHttp } from '../net/safe-http.js';
import type { AdBlocker } from '../render/ad-blocker.js';
import type { BrowserPool, RenderOwner } from '../render/browser-pool.js';
import type { ChartRenderer } from '../charts/chart-renderer.js';
import type { DiffStore } from '../diff/diff-store.js';
import type { CompareJobs } from '../jobs/compare-job.js';
import type { ScreenshotJobs } from '../jobs/screenshot-job.js';
import type { Webhooks } from '../jobs/webhooks/webhooks.js';
import type { TechDetector } from '../techstack/tech-detector.js';
import type { LinkDeps } from '../links/site-check.js';
import type { LinkCallOptions } from '../compose.js';

/** What the background workers use, built by the composition root (server/compose.ts). */
export interface WorkerDeps {
  config: Config;
  log: Logger;
  /** Outbound HTTP through the target-safety rules (webhook deliveries). */
  http: SafeHttp;
  /** Owners of jobs: their tier (render share) and webhook secret. */
  keys: KeyStore;
  browser: BrowserPool;
  adBlocker: AdBlocker;
  screenshotJobs: ScreenshotJobs;
  compareJobs: CompareJobs;
  webhooks: Webhooks;
  /** The comparison's checks: tech stack, TLS trust, diff images, the trend chart. */
  techDetector: TechDetector;
  tlsCa: readonly string[];
  diffs: DiffStore;
  charts: ChartRenderer;
  /** The link checker's dependencies as GET /api/deadlinks has them (one result cache, the configured concurrency), for a job's owner. */
  links(owner: RenderOwner, opts?: LinkCallOptions): LinkDeps;
}
