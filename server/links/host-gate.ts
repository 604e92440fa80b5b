/**
 * How many requests a run keeps in flight, in all and per host, and in what order they go.
 *
 * Per host the limit adapts the way TCP's congestion window does: a host starts at
 * `initialPerHost` and each answer that comes back without a sign of strain raises its limit
 * by one, so it doubles every round trip while the host keeps up, up to `perHost`. Signs of
 * strain: a 429 or 503 halves the limit (once per burst) and pauses the host until its
 * `Retry-After`; a timeout or reset halves it; a slow answer (see SLOW_MS) holds it. Once a
 * host has been cut, it grows by one per round trip only (one per `limit` answers). So a host
 * that answers fast gets a crawl done in a few round trips, and one that struggles gets fewer
 * requests at once until it stops saying so.
 *
 * Order: a request that opens more work (a page to crawl, a style sheet to read) goes before a
 * request that only checks a link, so the crawl's critical path does not wait behind leaf
 * checks; but such requests hold at most OPEN_SHARE of a host's limit, so pages that hang
 * cannot keep the checks from going out.
 */
export interface HostGateOptions {
  /** Requests in flight across all hosts. @default 64 */
  global?: number;
  /** Most requests in flight per host, reached while the host answers fast. @default 64 */
  perHost?: number;
  /** Requests in flight per host before it has answered (the fixed limit this service used before it adapted). @default 16 */
  initialPerHost?: number;
}

/** `open`: its answer opens more work (pages, style sheets); `check`: a link checked only. */
export type GatePriority = 'open' | 'check';

/**
 * How the host answered a request sent at `sentAt` (`performance.now()`), for its limit:
 * `answered` in `ms`, or `failed` (timeout, reset).
 */
export type HostAnswer = { sentAt: number } & ({ kind: 'answered'; ms: number } | { kind: 'failed' });

/**
 * An answer raises the host's limit only when it is fast: under SLOW_MS, and under SLOWER times
 * the host's fastest answer of the run (or under ALWAYS_FAST_MS): a host that starts queueing
 * our requests answers slower than it did, and stops getting more of them.
 */
const SLOW_MS = 1_000;
const SLOWER = 4;
const ALWAYS_FAST_MS = 100;
/** The part of a host's limit that requests opening more work may hold (the rest is kept for checks). */
const OPEN_SHARE = 0.75;

interface HostState {
  active: number;
  /** Of `active`, requests of priority `open`. */
  activeOpen: number;
  /** Requests allowed in flight: the whole part of `window`. */
  limit: number;
  window: number;
  /** Cut at least once: grows by one per round trip, no longer one per answer. */
  cut: boolean;
  /** The fastest answer so far, in ms. */
  fastest: number;
  pausedUntil: number;
  /** When the limit was last halved (`performance.now()`). */
  cutAt: number;
  waiting: Record<GatePriority, Array<() => void>>;
  timer?: NodeJS.Timeout;
}

export class HostGate {
  private readonly globalCap: number;
  private readonly perHost: number;
  private readonly initialPerHost: number;
  private globalActive = 0;
  private readonly globalWaiting: Record<GatePriority, Array<() => void>> = { open: [], check: [] };
  private readonly hosts = new Map<string, HostState>();

  constructor({ global = 64, perHost = 64, initialPerHost = 16 }: HostGateOptions = {}) {
    this.globalCap = global;
    this.perHost = perHost;
    this.initialPerHost = Math.min(initialPerHost, perHost);
  }

  /** Runs `task` once both the host's and the global slot are free. */
  async run<T>(host: string, task: () => Promise<T>, priority: GatePriority = 'check'): Promise<T> {
    const h = this.host(host);
    await this.acquireHost(h, priority);
    try {
      await this.acquireGlobal(priority);
      try {
        return await task();
      } finally {
        this.releaseGlobal();
      }
    } finally {
      this.releaseHost(h, priority);
    }
  }

  /** The host asked us to slow down (429, 503) a request sent at `sentAt`: paused for `ms`, its limit halved. */
  backoff(host: string, ms: number, sentAt: number): void {
    const h = this.host(host);
    h.pausedUntil = Math.max(h.pausedUntil, Date.now() + ms);
    this.halve(h, sentAt);
  }

  /** What the host's last answer says about its load: the limit grows, holds or halves. */
  answered(host: string, answer: HostAnswer): void {
    const h = this.hosts.get(host);
    if (!h) return;
    if (answer.kind === 'failed') return this.halve(h, answer.sentAt);
    h.fastest = Math.min(h.fastest, answer.ms);
    const fast = answer.ms < SLOW_MS && (answer.ms < ALWAYS_FAST_MS || answer.ms < SLOWER * h.fastest);
    if (!fast || h.window >= this.perHost) return;
    h.window = Math.min(this.perHost, h.window + (h.cut ? 1 / h.limit : 1));
    h.limit = Math.floor(h.window);
    this.drainHost(h);
  }

  /** Milliseconds until `host` may be contacted again (0 when not paused). */
  pausedFor(host: string): number {
    return Math.max(0, (this.hosts.get(host)?.pausedUntil ?? 0) - Date.now());
  }

  /** The host's current limit (requests it may have in flight). */
  limitOf(host: string): number {
    return this.hosts.get(host)?.limit ?? this.initialPerHost;
  }

  /**
   * Halves the limit once per burst: requests sent before the last cut went out under the old
   * limit, so their failures say nothing new (as TCP cuts its window once per round trip).
   */
  private halve(h: HostState, sentAt: number): void {
    if (sentAt < h.cutAt) return;
    h.cutAt = performance.now();
    h.cut = true;
    h.window = Math.max(1, Math.floor(h.limit / 2));
    h.limit = h.window;
  }

  private host(name: string): HostState {
    let h = this.hosts.get(name);
    if (!h) {
      h = { active: 0, activeOpen: 0, limit: this.initialPerHost, window: this.initialPerHost, cut: false, fastest: Infinity, pausedUntil: 0, cutAt: -Infinity, waiting: { open: [], check: [] } };
      this.hosts.set(name, h);
    }
    return h;
  }

  private acquireHost(h: HostState, priority: GatePriority): Promise<void> {
    return new Promise((resolve) => {
      h.waiting[priority].push(resolve);
      this.drainHost(h);
    });
  }

  private releaseHost(h: HostState, priority: GatePriority): void {
    h.active--;
    if (priority === 'open') h.activeOpen--;
    this.drainHost(h);
  }

  private drainHost(h: HostState): void {
    const wait = h.pausedUntil - Date.now();
    if (wait > 0) {
      if (!h.timer) {
        h.timer = setTimeout(() => {
          h.timer = undefined;
          this.drainHost(h);
        }, wait);
        h.timer.unref?.();
      }
      return;
    }
    while (h.active < h.limit) {
      const openAllowed = h.activeOpen < Math.max(1, Math.floor(h.limit * OPEN_SHARE));
      const priority: GatePriority = openAllowed && h.waiting.open.length > 0 ? 'open' : 'check';
      const next = h.waiting[priority].shift();
      if (!next) break;
      h.active++;
      if (priority === 'open') h.activeOpen++;
      next();
    }
  }

  private acquireGlobal(priority: GatePriority): Promise<void> {
    if (this.globalActive < this.globalCap) {
      this.globalActive++;
      return Promise.resolve();
    }
    return new Promise((resolve) =>
      this.globalWaiting[priority].push(() => {
        this.globalActive++;
        resolve();
      }),
    );
  }

  private releaseGlobal(): void {
    this.globalActive--;
    (this.globalWaiting.open.shift() ?? this.globalWaiting.check.shift())?.();
  }
}
