import { createApp } from './api/app.js';
import type { AppDeps } from './api/deps.js';
import { Limiter } from './api/limiter.js';
import { createMetrics } from './api/metrics.js';
import type { Config } from './config.js';
import { KeyStore } from './keys/key-store.js';
import { createMailer } from './keys/mailer.js';
import { createLogger, type Logger } from './log.js';
import { createSafeHttp } from './net/safe-http.js';
import { createTargetPolicy } from './net/target-policy.js';
import { isLoopbackHost } from './net/address-class.js';
import { connectOptionsOf, connectRedis, type RedisHandle } from './store/redis.js';
import { createReplicaWait } from './store/replica-wait.js';
import { createTechDetector } from './techstack/tech-detector.js';
import { loadTrustedCas } from './tls/trust-store.js';
import { createBrowserPool, type BrowserPool, type RenderOwner } from './render/browser-pool.js';
import { registerPoolMetrics } from './render/pool-metrics.js';
import { createAdBlocker } from './render/ad-blocker.js';
import { createChartRenderer } from './charts/chart-renderer.js';
import { createDocumentExtractor } from './links/extract-pool.js';
import { ScreenshotJobs } from './jobs/screenshot-job.js';
import { CompareJobs } from './jobs/compare-job.js';
import { Webhooks } from './jobs/webhooks/webhooks.js';
import { cacheOffOrigin, ResultCache } from './links/result-cache.js';
import { waybackLookup } from './links/wayback.js';
import { createBrowserRenderer } from './links/browser-renderer.js';
import type { DocumentExtractor } from './links/extract-pool.js';
import { linkNet, type LinkDeps } from './links/site-check.js';
import { withTargetHeaders, type TargetHeaders } from './net/target-headers.js';
import { pagesWithTargetHeaders } from './render/page-target-headers.js';
import type { SafeHttp } from './net/safe-http.js';
import { SiteStatusStore } from './links/site-status.js';
import { DiffStore, DIFF_KEPT_SECONDS } from './diff/diff-store.js';

export interface Service {
  deps: AppDeps;
  redisHandle: RedisHandle;
  /** Closes everything this service opened, in reverse order. */
  close(): Promise<void>;
}

/**
 * The composition root's parts: every long-lived resource is built here, once, and
 * passed down. `main.ts` and the tests both use it.
 */
export async function composeService(
  config: Config,
  opts: { log?: Logger; /** A pool shared with other services (tests); not closed by this one. */ browser?: BrowserPool } = {},
): Promise<Service> {
  const log = opts.log ?? createLogger(config.LOG_LEVEL);
  const redisHandle = await connectRedis({ ...connectOptionsOf(config), log });
  const { redis } = redisHandle;
  const replicated = createReplicaWait({ replicas: config.REDIS_WAIT_REPLICAS, timeoutMs: config.REDIS_WAIT_TIMEOUT_MS, log });
  const policy = createTargetPolicy(config.ALLOW_PRIVATE_TARGETS, { localInstance: isLoopbackHost(new URL(config.baseUrl).hostname) });
  // Pages, links and webhooks trust what the TLS check trusts (system store, TLS_EXTRA_CA_FILE).
  const tlsCa = loadTrustedCas({ extraCaFile: config.TLS_EXTRA_CA_FILE });
  const http = createSafeHttp({ policy, ca: tlsCa, connectTimeoutMs: Math.min(config.FETCH_TIMEOUT_MS, 10_000), connections: config.LINK_HOST_CONCURRENCY });
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log });
  const browser =
    opts.browser ??
    createBrowserPool({
      chromePath: config.CHROME_PATH,
      concurrency: config.BROWSER_CONCURRENCY,
      queue: config.BROWSER_QUEUE,
      recycleAfter: config.BROWSER_RECYCLE_AFTER,
      warmSpare: config.BROWSER_WARM_SPARE,
      timeoutMs: config.RENDER_TIMEOUT_MS,
      scriptBudgetMs: config.RENDER_SCRIPT_BUDGET_MS,
      log,
    });
  const charts = createChartRenderer({ threads: config.CHART_THREADS });
  const documentExtractor = createDocumentExtractor({ threads: config.LINK_EXTRACT_THREADS, timeoutMs: config.LINK_EXTRACT_TIMEOUT_MS });
  const metrics = createMetrics();
  registerPoolMetrics(metrics.registry, browser);
  const deps: AppDeps = {
    config,
    redis,
    log,
    metrics,
    http,
    keys: new KeyStore(redis, config.REDIS_PREFIX, { replicated }),
    limiter: new Limiter(redis, config.REDIS_PREFIX, { cheapPerMinute: config.CHEAP_LIMIT_PER_MINUTE, log }),
    mailer,
    browser,
    adBlocker: createAdBlocker({ cacheDir: config.ADBLOCK_CACHE_DIR, log }),
    charts,
    documentExtractor,
    tlsCa,
    techDetector: createTechDetector({ dataDir: config.FINGERPRINTS_DIR }),
    screenshotJobs: new ScreenshotJobs(redisHandle.producerConnection, redis, config.REDIS_PREFIX, replicated),
    compareJobs: new CompareJobs(redisHandle.producerConnection, redis, config.REDIS_PREFIX, replicated),
    webhooks: new Webhooks(redisHandle.producerConnection, redis, config.REDIS_PREFIX, { attempts: config.WEBHOOK_ATTEMPTS, backoffMs: config.WEBHOOK_BACKOFF_MS }),
    links: linkDeps(config, { http, browser, documentExtractor, cache: new ResultCache(redis, config.REDIS_PREFIX, { okSeconds: config.LINK_CACHE_OK_SECONDS, failSeconds: config.LINK_CACHE_FAIL_SECONDS }) }),
    siteStatuses: new SiteStatusStore(redis, config.REDIS_PREFIX, config.LINK_STATUS_TTL_SECONDS),
    diffs: new DiffStore(redis, config.REDIS_PREFIX, DIFF_KEPT_SECONDS),
    startedAt: Date.now(),
    lifecycle: { draining: false },
  };
  const closers: Array<() => Promise<void> | void> = [() => redisHandle.close(), () => http.close(), () => mailer.close(), () => deps.screenshotJobs.close(), () => deps.compareJobs.close(), () => deps.webhooks.close()];
  if (!opts.browser) closers.push(() => browser.close());
  closers.push(() => charts.close(), () => documentExtractor.close());
  return {
    deps,
    redisHandle,
    async close() {
      for (const close of closers.reverse()) {
        await Promise.resolve(close()).catch((err) => log.warn({ err }, 'error while closing'));
      }
    },
  };
}

/**
 * What the link checker needs, built from the service's parts in one place: every check of
 * links (the dead-link routes, a comparison's two sides) shares the result cache, the
 * configured concurrency and the browser, and a new dependency reaches them all from here.
 * The pages it renders count against `owner`'s share of the browser.
 */
export function linkDeps(
  config: Config,
  parts: { http: SafeHttp; browser: BrowserPool; documentExtractor: DocumentExtractor; cache: ResultCache },
): (owner: RenderOwner, opts?: LinkCallOptions) => LinkDeps {
  const { http } = parts;
  const shared: LinkDeps = {
    ...linkNet(http),
    cache: parts.cache,
    timeoutMs: config.FETCH_TIMEOUT_MS,
    concurrency: config.LINK_CONCURRENCY,
    hostConcurrency: config.LINK_HOST_CONCURRENCY,
    extract: (documents, onEach) => parts.documentExtractor.extract(documents, onEach),
    archive: waybackLookup({ baseUrl: config.ARCHIVE_API_URL, dispatcher: http.dispatcher, timeoutMs: Math.min(config.FETCH_TIMEOUT_MS, 10_000) }),
  };
  return (owner, { targetHeaders, cacheTtl } = {}) => {
    const renderer = createBrowserRenderer(pagesWithTargetHeaders(parts.browser.as(owner), targetHeaders), http.policy, config.BROWSER_CONCURRENCY);
    const cache = parts.cache.forCaller(owner.id, cacheTtl);
    if (!targetHeaders) return { ...shared, cache, renderer };
    // A protected target answers these requests as it answers no one else: no result that
    // touched its origin is shared through the cache, nor another caller's reused for it.
    return { ...shared, dispatcher: withTargetHeaders(shared.dispatcher, targetHeaders), cache: cacheOffOrigin(cache, targetHeaders.origin), renderer };
  };
}

/** What one check asks of the link checker besides its owner. */
export interface LinkCallOptions {
  /** Headers for one origin (a protected preview): its requests and renders carry them, and no result that touched it is cached. */
  targetHeaders?: TargetHeaders;
  /** A request's `cache_ttl`: its working results kept that long under the owner's own scope (`ResultCache.forCaller`). */
  cacheTtl?: number;
}

export { createApp };
