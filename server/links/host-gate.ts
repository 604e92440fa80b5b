/**
 * Global and per-host concurrency caps with adaptive per-host backoff: a 429 (or a 503
 * with Retry-After) pauses that host until the announced time and halves its
 * concurrency; successes grow it back to the cap.
 */
export interface HostGateOptions {
  /** Requests in flight across all hosts. @default 64 */
  global?: number;
  /** Requests in flight per host. @default 16 */
  perHost?: number;
}

interface HostState {
  active: number;
  limit: number;
  pausedUntil: number;
  waiting: Array<() => void>;
  timer?: NodeJS.Timeout;
}

export class HostGate {
  private readonly globalCap: number;
  private readonly perHost: number;
  private globalActive = 0;
  private readonly globalWaiting: Array<() => void> = [];
  private readonly hosts = new Map<string, HostState>();

  constructor({ global = 64, perHost = 16 }: HostGateOptions = {}) {
    this.globalCap = global;
    this.perHost = perHost;
  }

  /** Runs `task` once both the host's and the global slot are free. */
  async run<T>(host: string, task: () => Promise<T>): Promise<T> {
    const h = this.host(host);
    await this.acquireHost(h);
    try {
      await this.acquireGlobal();
      try {
        return await task();
      } finally {
        this.releaseGlobal();
      }
    } finally {
      this.releaseHost(h);
    }
  }

  /** Pauses `host` for `ms` and halves its concurrency. */
  backoff(host: string, ms: number): void {
    const h = this.host(host);
    h.pausedUntil = Math.max(h.pausedUntil, Date.now() + ms);
    h.limit = Math.max(1, Math.floor(h.limit / 2));
  }

  /** Lets a host that backed off grow its concurrency again. */
  success(host: string): void {
    const h = this.hosts.get(host);
    if (h && h.limit < this.perHost) h.limit += 1;
  }

  /** Milliseconds until `host` may be contacted again (0 when not paused). */
  pausedFor(host: string): number {
    return Math.max(0, (this.hosts.get(host)?.pausedUntil ?? 0) - Date.now());
  }

  private host(name: string): HostState {
    let h = this.hosts.get(name);
    if (!h) {
      h = { active: 0, limit: this.perHost, pausedUntil: 0, waiting: [] };
      this.hosts.set(name, h);
    }
    return h;
  }

  private acquireHost(h: HostState): Promise<void> {
    if (h.active < h.limit && h.pausedUntil <= Date.now() && h.waiting.length === 0) {
      h.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      h.waiting.push(() => {
        h.active++;
        resolve();
      });
      this.drainHost(h);
    });
  }

  private releaseHost(h: HostState): void {
    h.active--;
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
    while (h.active < h.limit && h.waiting.length) h.waiting.shift()?.();
  }

  private acquireGlobal(): Promise<void> {
    if (this.globalActive < this.globalCap) {
      this.globalActive++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.globalWaiting.push(() => {
      this.globalActive++;
      resolve();
    }));
  }

  private releaseGlobal(): void {
    this.globalActive--;
    this.globalWaiting.shift()?.();
  }
}
