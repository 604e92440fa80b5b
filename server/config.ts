import os from 'node:os';
import { z } from 'zod';
import { tierNames } from './keys/tiers.js';

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

const int = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/**
 * Every setting of the service, read from the environment once at boot.
 * The README's configuration table mirrors this schema.
 */
const schema = z.object({
  /** Port the HTTP API listens on. @default 8080 */
  PORT: int(8080, 0, 65535),
  /** Port of a worker process's /livez, /readyz and /metrics (0: any free port). @default 8081 */
  WORKER_PORT: int(8081, 0, 65535),
  /** Interface to bind. @default 0.0.0.0 */
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Base URL used in links the service hands out (quick_start, verify links, result_url). */
  PUBLIC_BASE_URL: z.url().optional(),
  /** Redis connection URL; unset means 127.0.0.1:6379 or a private embedded redis-server. */
  REDIS_URL: z.string().optional(),
  /**
   * Redis Sentinel addresses (`host:port,host:port`): the service asks them for the current
   * primary and follows a failover without a restart. Exclusive with REDIS_URL.
   */
  REDIS_SENTINELS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const nodes = parseHostPorts(v, 26379);
      if (typeof nodes === 'string') {
        ctx.addIssue({ code: 'custom', message: nodes });
        return z.NEVER;
      }
      return nodes;
    }),
  /** The Sentinel's name of the primary (`sentinel monitor NAME …`). @default mymaster */
  REDIS_SENTINEL_NAME: z.string().min(1).default('mymaster'),
  /** Password of the Sentinels themselves (`requirepass` in sentinel.conf), when they have one. */
  REDIS_SENTINEL_PASSWORD: z.string().optional(),
  /** With REDIS_SENTINELS: user name and password of the Redis primary and replicas (with REDIS_URL, put them in the URL). */
  REDIS_USERNAME: z.string().optional(),
  REDIS_PASSWORD: z.string().optional(),
  /** With REDIS_SENTINELS: TLS to the Sentinels and to Redis (with REDIS_URL, use `rediss://`). @default false */
  REDIS_TLS: bool(false),
  /**
   * Replicas that must hold a new or changed key or a queued job before the API acknowledges it
   * (Redis `WAIT`), so a failover loses no acknowledged key or job; with fewer, such writes
   * answer 503. 0: no wait (one Redis). @default 0
   */
  REDIS_WAIT_REPLICAS: int(0, 0, 16),
  /**
   * Longest wait for those replicas, in ms, below REDIS_COMMAND_TIMEOUT_MS; past it the write is
   * refused with 503 and Retry-After (it may stand on the primary alone). @default 250
   */
  REDIS_WAIT_TIMEOUT_MS: int(250, 10, 60_000),
  /**
   * Longest wait for one Redis command, in ms. While Redis is away, commands fail at once
   * (no offline queue); a Redis that hangs fails them after this, so requests answer 503 fast. @default 500
   */
  REDIS_COMMAND_TIMEOUT_MS: int(500, 50, 60_000),
  /** Prefix of every Redis key and BullMQ queue, so several deployments or tests share one Redis. @default sl: */
  REDIS_PREFIX: z.string().default('sl:'),
  /** Directory for the embedded redis-server's data (AOF). @default ./data/redis */
  REDIS_DATA_DIR: z.string().default('./data/redis'),
  /** Chromium executable. @default /usr/bin/chromium */
  CHROME_PATH: z.string().default('/usr/bin/chromium'),
  /** `true` allows every private address as a target; a comma list of addresses/CIDRs allows just those. @default false */
  ALLOW_PRIVATE_TARGETS: z.string().default('false'),
  /** SMTP server for verification mail, e.g. smtp://user:pass@mail:587; unset logs the link instead. */
  SMTP_URL: z.string().optional(),
  /** Sender of verification mail. */
  MAIL_FROM: z.string().default('SiteLens <no-reply@sitelens.local>'),
  /** Where /api/verify redirects (302) after activation; unset serves an HTML page. */
  VERIFY_REDIRECT_URL: z.url().optional(),
  /** pino level. @default info */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Express `trust proxy` setting: false, true, a hop count, or a list of addresses. @default false */
  TRUST_PROXY: z.string().default('false'),
  /** Per-minute limit of the cheap endpoints (usage, health, openapi, job status), per key or per IP. @default 600 */
  CHEAP_LIMIT_PER_MINUTE: int(600, 1, 1_000_000_000),
  /** How long a worker's claim on a job lasts without renewal; a dead worker's job is retried after it. @default 15000 */
  JOB_LOCK_MS: int(15_000, 500, 600_000),
  /** How often workers look for jobs whose worker died. @default 5000 */
  JOB_STALLED_INTERVAL_MS: int(5_000, 200, 600_000),
  /** On SIGTERM/SIGINT, longest wait for in-flight requests and running jobs before exiting anyway, in ms. @default 10000 */
  SHUTDOWN_DRAIN_MS: int(10_000, 0, 600_000),
  /**
   * On SIGTERM/SIGINT, how long the process keeps serving with `/readyz` answering 503 before
   * it drains, so a load balancer or Kubernetes takes it out of rotation first. @default 0
   */
  SHUTDOWN_DELAY_MS: int(0, 0, 120_000),
  /**
   * Key that seals secrets a queued job must keep (`target_headers`) in Redis: AES-256-GCM,
   * 32 bytes as base64 or hex (`openssl rand -base64 32`), the same for every api and worker
   * process. Unset: queued jobs refuse `target_headers` (400 saying so); the synchronous
   * endpoints take them without it.
   */
  JOB_SECRETS_KEY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const key = /^[0-9a-f]{64}$/i.test(v) ? Buffer.from(v, 'hex') : Buffer.from(v, 'base64');
      if (key.length !== 32) {
        ctx.addIssue({ code: 'custom', message: 'must be 32 bytes as base64 (44 characters) or hex (64 characters), e.g. from `openssl rand -base64 32`' });
        return z.NEVER;
      }
      return key;
    }),
  /** Delivery attempts of one webhook. @default 5 */
  WEBHOOK_ATTEMPTS: int(5, 1, 20),
  /** First retry delay of a failed webhook, doubled each time, in ms. @default 5000 */
  WEBHOOK_BACKOFF_MS: int(5_000, 10, 3_600_000),
  /** Concurrent browser pages per process. @default 4 */
  BROWSER_CONCURRENCY: int(4, 1, 64),
  /** Renders allowed to wait for a free page before 429. @default 32 */
  BROWSER_QUEUE: int(32, 0, 10_000),
  /** Keep one fresh context + page ready while a pool slot is idle (~100 ms off a render). @default true */
  BROWSER_WARM_SPARE: bool(true),
  /** Renders after which the browser is relaunched to bound memory. @default 200 */
  BROWSER_RECYCLE_AFTER: int(200, 1, 1_000_000),
  /** Hard cap of one render, in ms. @default 60000 */
  RENDER_TIMEOUT_MS: int(60_000, 1_000, 600_000),
  /**
   * Script one render may run: ms of the renderer's script time, and the longest its main
   * thread may stay unresponsive. Past it the page's script is stopped in the renderer and the
   * render answers 400. @default 5000
   */
  RENDER_SCRIPT_BUDGET_MS: int(5_000, 500, 120_000),
  /**
   * Renders one caller may run at once in a process, by tier (`keyless` callers by IP); never
   * every slot. Further renders of that caller wait for its own turn. @default keyless=2,free=2,starter=2,pro=3,business=3
   */
  RENDER_SHARE: z
    .string()
    .default('keyless=2,free=2,starter=2,pro=3,business=3')
    .transform((v, ctx) => {
      const share = parseRenderShare(v);
      if (typeof share === 'string') {
        ctx.addIssue({ code: 'custom', message: share });
        return z.NEVER;
      }
      return share;
    }),
  /** Deepest nesting of a JSON request body (objects and arrays); deeper answers 400. @default 64 */
  JSON_MAX_DEPTH: int(64, 4, 10_000),
  /** Timeout of one outbound HTTP request (pages, links), in ms. @default 15000 */
  FETCH_TIMEOUT_MS: int(15_000, 100, 120_000),
  /** Longest wait for a screenshot's `wait_for` selector, in ms. @default 10000 */
  SCREENSHOT_WAIT_FOR_MS: int(10_000, 100, 60_000),
  /** Where the compiled ad-block engine is cached (built from the packaged filter lists on first use). @default ./data/adblock */
  ADBLOCK_CACHE_DIR: z.string().default('./data/adblock'),
  /** Worker threads drawing charts; default: the number of cores. */
  CHART_THREADS: int(Math.max(1, os.availableParallelism()), 1, 64),
  /** GitHub REST API base for README link checks. @default https://api.github.com */
  GITHUB_API_URL: z.url().default('https://api.github.com'),
  /** Optional token for the GitHub API (higher rate limit). */
  GITHUB_TOKEN: z.string().optional(),
  /** Link checks in flight per dead-link run, all hosts together. @default 64 */
  LINK_CONCURRENCY: int(64, 1, 1024),
  /** Most link checks in flight per host: a host starts at 16 (or this, when lower) and grows to this while it answers fast; halved on 429/503, timeouts and resets. Also the outbound connections kept per origin. @default 64 */
  LINK_HOST_CONCURRENCY: int(64, 1, 256),
  /** Seconds a working link's result is shared across requests; 0 disables the cache. @default 600 */
  LINK_CACHE_OK_SECONDS: int(600, 0, 86_400),
  /** Seconds a failed link's result is shared across requests, at most 60 (a fixed link must show up soon). @default 60 */
  LINK_CACHE_FAIL_SECONDS: int(60, 0, 60),
  /** Base URL of the Wayback Machine's availability API (`{url}/wayback/available`), asked for an archived copy of a broken link when a check has `suggest_fixes`; empty: no archive calls at all. @default https://archive.org */
  ARCHIVE_API_URL: z.union([z.literal(''), z.url()]).default('https://archive.org'),
  /** Seconds the widget/badge status of a site is served from cache before a fresh quick check. @default 900 */
  LINK_STATUS_TTL_SECONDS: int(900, 10, 86_400),
  /** Fresh widget/badge checks (cache misses) allowed per client IP per hour. @default 20 */
  LINK_STATUS_CHECKS_PER_HOUR: int(20, 1, 10_000),
  /** Largest JSON body of POST /api/deadlinks/documents, in bytes (the tiers' content limits are lower; paths and JSON escaping need room). @default 33554432 */
  LINK_DOCUMENTS_BODY_MAX_BYTES: int(32 * 1024 * 1024, 1024 * 1024, 512 * 1024 * 1024),
  /** Worker threads extracting links from Markdown and HTML documents; default: the number of cores. */
  LINK_EXTRACT_THREADS: int(Math.max(1, os.availableParallelism()), 1, 64),
  /** Longest time one document may take to read before it is reported unreadable, in ms. @default 10000 */
  LINK_EXTRACT_TIMEOUT_MS: int(10_000, 100, 120_000),
  /** PEM bundle of extra CAs the TLS check trusts, on top of Node's store, the system store and NODE_EXTRA_CA_CERTS. */
  TLS_EXTRA_CA_FILE: z.string().optional(),
  /** Directory holding the Wappalyzer-format technologies.json and categories.json (scripts/fetch-fingerprints.sh). @default ./data/fingerprints */
  FINGERPRINTS_DIR: z.string().default('./data/fingerprints'),
  /** Largest page body read by the perf, tech-stack and SEO checks, in bytes. @default 5242880 */
  ANALYSIS_MAX_BYTES: int(5 * 1024 * 1024, 64 * 1024, 100 * 1024 * 1024),
});

/** `host:port,host:port` (port optional, IPv6 in brackets) → addresses; a message naming the bad part when malformed. */
function parseHostPorts(v: string, defaultPort: number): Array<{ host: string; port: number }> | string {
  const nodes: Array<{ host: string; port: number }> = [];
  for (const part of v.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(part);
    const port = m?.[3] === undefined ? defaultPort : Number(m[3]);
    if (!m || port < 1 || port > 65535) return `${JSON.stringify(part)} is not host:port (e.g. sentinel-1:26379,sentinel-2:26379)`;
    nodes.push({ host: m[1] ?? m[2], port });
  }
  if (!nodes.length) return 'give at least one host:port';
  return nodes;
}

const shareNames = ['keyless', ...tierNames] as const;
export type RenderShare = Record<(typeof shareNames)[number], number>;

/** `keyless=2,free=2,…` → per-tier shares; a message naming the problem when malformed. */
function parseRenderShare(v: string): RenderShare | string {
  const share: Partial<RenderShare> = {};
  for (const part of v.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name, count] = part.split('=').map((x) => x.trim());
    const n = Number(count);
    if (!(shareNames as readonly string[]).includes(name)) return `unknown tier ${JSON.stringify(name)}; use ${shareNames.join(', ')}`;
    if (!Number.isInteger(n) || n < 1 || n > 64) return `${name} must be a whole number of renders from 1 to 64`;
    share[name as keyof RenderShare] = n;
  }
  const missing = shareNames.filter((n) => share[n] === undefined);
  if (missing.length) return `missing ${missing.join(', ')} (give every tier: ${shareNames.map((n) => `${n}=N`).join(',')})`;
  return share as RenderShare;
}

/** Every setting's name, for docs checks. */
export const settingNames = Object.keys(schema.shape);

export type Config = z.infer<typeof schema> & {
  /** PUBLIC_BASE_URL without a trailing slash, or derived from HOST and PORT. */
  baseUrl: string;
  trustProxy: boolean | number | string;
};

/** Validates `env` and returns the settings; throws naming each bad key. */
export function createConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(stripEmpty(env));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  const c = parsed.data;
  if (c.REDIS_WAIT_REPLICAS && c.REDIS_WAIT_TIMEOUT_MS >= c.REDIS_COMMAND_TIMEOUT_MS) {
    throw new Error(`Invalid configuration: REDIS_WAIT_TIMEOUT_MS (${c.REDIS_WAIT_TIMEOUT_MS}) must be below REDIS_COMMAND_TIMEOUT_MS (${c.REDIS_COMMAND_TIMEOUT_MS}): a wait for replicas longer than a command may take fails the write`);
  }
  if (c.REDIS_URL && c.REDIS_SENTINELS) throw new Error('Invalid configuration: REDIS_URL and REDIS_SENTINELS are exclusive; set REDIS_SENTINELS (with REDIS_SENTINEL_NAME) for a Redis that fails over, or REDIS_URL for one Redis');
  const host = c.HOST === '0.0.0.0' || c.HOST === '::' ? 'localhost' : c.HOST;
  const baseUrl = (c.PUBLIC_BASE_URL ?? `http://${host}:${c.PORT}`).replace(/\/+$/, '');
  return { ...c, baseUrl, trustProxy: parseTrustProxy(c.TRUST_PROXY) };
}

function parseTrustProxy(v: string): boolean | number | string {
  if (v === 'true') return true;
  if (v === 'false' || v === '') return false;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}

/** Only the keys of the schema, with empty strings treated as unset. */
function stripEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') out[key] = v;
  }
  return out;
}
