import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { SafeHttp } from '../net/safe-http.js';
import type { KeyStore } from '../keys/key-store.js';
import type { Mailer } from '../keys/mailer.js';
import type { Limiter } from './limiter.js';
import type { Metrics } from './metrics.js';
import type { TechDetector } from '../techstack/tech-detector.js';
import type { BrowserPool, RenderOwner } from '../render/browser-pool.js';
import type { AdBlocker } from '../render/ad-blocker.js';
import type { ChartRenderer } from '../charts/chart-renderer.js';
import type { DocumentExtractor } from '../links/extract-pool.js';
import type { ScreenshotJobs } from '../jobs/screenshot-job.js';
import type { Webhooks } from '../jobs/webhooks/webhooks.js';
import type { LinkDeps } from '../links/site-check.js';
import type { LinkCallOptions } from '../compose.js';
import type { SiteStatusStore } from '../links/site-status.js';
import type { DiffStore } from '../diff/diff-store.js';
import type { CompareJobs } from '../jobs/compare-job.js';
import type { Lifecycle } from '../probes.js';

/** Everything the HTTP layer and the workers need, built once by the composition root (server/compose.ts). */
export interface AppDeps {
  config: Config;
  redis: Redis;
  log: Logger;
  metrics: Metrics;
  /** Outbound HTTP through the target-safety rules. */
  http: SafeHttp;
  keys: KeyStore;
  limiter: Limiter;
  mailer: Mailer;
  /** Chromium pages, leased per render with `browser.withPage({ policy }, fn)`. */
  browser: BrowserPool;
  /** Ad, tracker and consent-dialog blocking for a page (screenshot `block_ads`). */
  adBlocker: AdBlocker;
  /** Chart.js drawing in worker threads. */
  charts: ChartRenderer;
  /** Markdown and HTML link extraction in worker threads (documents and GitHub modes). */
  documentExtractor: DocumentExtractor;
  /** CA certificates the TLS check trusts (Node's and the system store, NODE_EXTRA_CA_CERTS, TLS_EXTRA_CA_FILE). */
  tlsCa: readonly string[];
  /** Wappalyzer-format technology matcher, compiled once on first use. */
  techDetector: TechDetector;
  /** The asynchronous screenshot queue (BullMQ) and its outcomes. */
  screenshotJobs: ScreenshotJobs;
  /** The preview-report comparisons (BullMQ), their outcomes, health history and trend pictures. */
  compareJobs: CompareJobs;
  /** Webhook deliveries of every job kind and their records. */
  webhooks: Webhooks;
  /** The link checker's dependencies (shared result cache, concurrency, renderer) for a caller whose renders count against `owner` (server/compose.ts); `cacheTtl` (a request's `cache_ttl`) keeps its working results that long under its own scope. */
  links(owner: RenderOwner, opts?: LinkCallOptions): LinkDeps;
  /** Latest dead-link status per site (widget, badge). */
  siteStatuses: SiteStatusStore;
  /** Screenshot-diff images behind their URLs. */
  diffs: DiffStore;
  /** Process start, for uptime. */
  startedAt: number;
  /** Whether the process drains (SIGTERM), for `/readyz`. */
  lifecycle: Lifecycle;
}
