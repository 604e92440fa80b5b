import type { BrowserContext, Page } from 'puppeteer-core';
import type { Logger } from '../log.js';
import type { TargetPolicy } from '../net/target-policy.js';
import type { TargetHeaders } from '../net/target-headers.js';
import { sendTargetHeaders } from './page-target-headers.js';
import { Browsers, type Instance } from './pool/browsers.js';
import { applyLeaseLook, newContextPage, type LeaseLook, type Prepared } from './pool/page-setup.js';
import { BrowserCrashedError, RenderTimeoutError, ScriptBudgetError } from './pool/pool-errors.js';
import type { RenderOwner } from './pool/render-owner.js';
import { watchScript, type ScriptWatchdog } from './pool/script-watchdog.js';
import { FairSlots } from './pool/slots.js';
import { WarmSpare, type Spare } from './pool/warm-spare.js';
import { startSafetyProxy, type HostOverride, type SafetyProxy } from './safety-proxy.js';
import { timeBound } from '../time-bounds.js';

export { internalRenderOwner, renderOwnerFor, type RenderOwner } from './pool/render-owner.js';

export interface BrowserPoolOptions {
  /** Chromium executable. @default /usr/bin/chromium */
  chromePath: string;
  /** Pages open at once. @default 4 */
  concurrency: number;
  /** Leases allowed to wait for a free page; one more gets 429. @default 32 */
  queue: number;
  /** Renders after which the browser is relaunched. @default 200 */
  recycleAfter: number;
  /** Default cap of one lease in ms (also the longest wait in the queue). @default 60000 */
  timeoutMs: number;
  /**
   * Script one render may run, in ms of the renderer's script time, and the longest its
   * main thread may stay unresponsive; past it the script is stopped in the renderer. @default 5000
   */
  scriptBudgetMs?: number;
  /** Extra Chromium flags, appended to the pool's own. */
  extraArgs?: string[];
  /**
   * Keep one fresh context + page ready while a slot is free, so a render skips the ~200 ms
   * Chromium spends creating them. The spare is never used twice and counts against the cap.
   * @default true
   */
  warmSpare?: boolean;
  log?: Logger;
}

export interface BrowserPoolDeps {
  /** Resolves chosen names to fixed addresses in the safety proxy (tests only). */
  hostOverride?: HostOverride;
}

export interface PageOptions extends LeaseLook {
  /** Target-safety rules every request of the page must pass. */
  policy: TargetPolicy;
  /** Cap of this lease in ms; defaults to the pool's. */
  timeoutMs?: number;
  /** Headers sent with the page's requests to one origin only (protected previews). */
  targetHeaders?: TargetHeaders;
}

export interface LeaseOptions extends PageOptions {
  /** Whose share of the pool the render counts against (fairness between callers). */
  owner: RenderOwner;
}

export interface PoolStats {
  /** Pages (contexts) open now. */
  open: number;
  /** Leases holding a slot (open pages plus those being set up or torn down). */
  leased: number;
  queued: number;
  capacity: number;
  renders: number;
  launches: number;
  /** 1 while a fresh context + page waits for the next render. */
  spare: number;
}

/** What a lease's work may ask of the pool besides its page. */
export interface Lease {
  /**
   * The page is about to render something new (a tab reused for the next page of a crawl):
   * its script budget starts again from zero.
   */
  restartScriptBudget(): Promise<void>;
}

/**
 * The pool's pages as one owner leases them: what domain code renders with. Built by the
 * caller that knows whose work it is (a request's key or IP, a job's key), so every render
 * counts against the right share.
 */
export interface RenderPages {
  // A property, not a method: its parameters are checked strictly, so the whole pool (whose
  // leases need an owner) cannot pass for an owner's pages.
  withPage: <T>(opts: PageOptions, fn: (page: Page, lease: Lease) => Promise<T>) => Promise<T>;
  /** See `BrowserPool.checkTarget`. */
  checkTarget(policy: TargetPolicy, url: string): Promise<URL>;
  stats(): PoolStats;
}

export interface BrowserPool {
  /** The pool's pages leased on behalf of `owner`. */
  as(owner: RenderOwner): RenderPages;
  /**
   * Leases an isolated incognito context + page, runs `fn`, and always closes the context.
   * All page traffic goes through the target-safety proxy for `opts.policy`.
   * Throws (see `pool/pool-errors.ts`) 429 when the caller's share or the queue is used up,
   * 504 on timeout, 503 when the browser died, 400 when the page's script ran past its budget
   * or the page navigated to a refused target, 502 when the proxy could not load the page.
   */
  withPage<T>(opts: LeaseOptions, fn: (page: Page, lease: Lease) => Promise<T>): Promise<T>;
  /**
   * Checks a URL the way the page's proxy will (scheme, IP literal, resolved addresses) before
   * a lease is spent on it; throws BlockedTargetError or the DNS error.
   */
  checkTarget(policy: TargetPolicy, url: string): Promise<URL>;
  stats(): PoolStats;
  /**
   * Whether a render could start: the browser runs (launched now if there is none) and answers
   * over DevTools. False when Chromium cannot start or does not answer; never throws.
   */
  canRender(): Promise<boolean>;
  /** The current browser's process id (tests of crash recovery). */
  browserPid(): number | undefined;
  close(): Promise<void>;
}

/**
 * Chromium pages for renders: slots with fair queueing per caller (`pool/slots.ts`), the
 * browser processes and their recycling (`pool/browsers.ts`), the warm spare page
 * (`pool/warm-spare.ts`), each page's set-up and navigation guard (`pool/page-setup.ts`),
 * and the script budget (`pool/script-watchdog.ts`).
 */
export function createBrowserPool(options: BrowserPoolOptions, deps: BrowserPoolDeps = {}): BrowserPool {
  const { log } = options;
  const scriptBudgetMs = options.scriptBudgetMs ?? 5_000;
  const browsers = new Browsers({
    chromePath: options.chromePath,
    recycleAfter: options.recycleAfter,
    protocolTimeoutMs: Math.max(30_000, options.timeoutMs * 2),
    extraArgs: options.extraArgs,
    log,
  });
  // The spare and the slots refer to each other: a lease that finds no slot takes the spare's.
  let spare: WarmSpare | undefined;
  const slots = new FairSlots({
    capacity: options.concurrency,
    queue: options.queue,
    waitMs: options.timeoutMs,
    reclaim: () => spare?.yieldSlot() ?? false,
  });
  spare = new WarmSpare(slots, browsers, options.warmSpare !== false);
  const warm = spare;
  const proxies = new Map<TargetPolicy, Promise<SafetyProxy>>();
  let renders = 0;
  let pages = 0;

  const proxyFor = (policy: TargetPolicy): Promise<SafetyProxy> => {
    let proxy = proxies.get(policy);
    if (!proxy) {
      proxy = startSafetyProxy(policy, deps.hostOverride);
      proxy.catch(() => proxies.delete(policy));
      proxies.set(policy, proxy);
    }
    return proxy;
  };

  const checkTarget = async (policy: TargetPolicy, url: string): Promise<URL> => {
    const target = policy.assertUrl(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    await new Promise<void>((resolve, reject) =>
      policy.lookup(deps.hostOverride?.(host) ?? host, { all: true }, (err) => (err ? reject(err) : resolve())),
    );
    return target;
  };

  const prepare = (inst: Instance, proxy: SafetyProxy, policy: TargetPolicy, onContext: (c: Promise<BrowserContext>) => void = () => undefined) =>
    newContextPage(inst, proxy, (url) => checkTarget(policy, url), onContext);

  async function withPage<T>(opts: LeaseOptions, fn: (page: Page, lease: Lease) => Promise<T>): Promise<T> {
    const timeoutMs = opts.timeoutMs ?? options.timeoutMs;
    const { owner } = opts;
    // A fitting spare comes with its slot, when the owner's share allows one more; otherwise wait for one.
    const claimed: Spare | undefined = warm.claim(opts.policy, () => slots.adopt(owner));
    if (!claimed) await slots.acquire(owner);
    let inst: Instance | undefined;
    let timer: NodeJS.Timeout | undefined;
    let contextPromise: Promise<BrowserContext> | undefined;
    let proxy: SafetyProxy | undefined;
    let prepared: Prepared | undefined;
    let watchdog: ScriptWatchdog | undefined;
    let pageCrashed = false;
    let finished = false;
    let counted = false;
    try {
      proxy = await proxyFor(opts.policy);
      inst = await browsers.instance();
      inst.leases++;
      if (claimed) void browsers.endUse(claimed.inst); // the spare's hold on its browser passes to this render's
      browsers.countRender(inst);
      renders++;
      const leased = inst;
      const leasedProxy = proxy;
      const work = (async () => {
        const reused = claimed ? await warm.usable(claimed, leased) : undefined;
        if (reused) contextPromise = Promise.resolve(reused.context);
        const ready = reused ?? (await prepare(leased, leasedProxy, opts.policy, (c) => (contextPromise = c)));
        prepared = ready;
        if (finished) throw new Error('lease already ended');
        pages++;
        counted = true;
        ready.page.on('error', () => (pageCrashed = true)); // the renderer died ("Page crashed!")
        if (opts.targetHeaders) sendTargetHeaders(ready.page, opts.targetHeaders);
        const cdp = await ready.page.createCDPSession();
        await applyLeaseLook(cdp, leased, opts);
        const dog = watchScript(cdp, scriptBudgetMs, ready.navigation);
        watchdog = dog;
        return Promise.race([fn(ready.page, { restartScriptBudget: () => dog.restart() }), dog.tripped]);
      })();
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          void watchdog?.stop(); // frees the renderer's core now, not when the context closes
          reject(new RenderTimeoutError(`rendering timed out after ${timeoutMs} ms; retry, or try a lighter page`));
        }, timeoutMs);
      });
      work.catch(() => undefined); // after a timeout its rejection (context closed) is expected
      const result = await Promise.race([work, timeout]);
      if (prepared?.guard.failure) throw prepared.guard.failure;
      return result;
    } catch (err) {
      // What the page ran into explains the page's own error (an aborted navigation, a terminated script).
      if (prepared?.guard.failure) throw prepared.guard.failure;
      if (watchdog?.fired) throw new ScriptBudgetError(scriptBudgetMs);
      // A dead browser or renderer explains whatever the page's code then failed with.
      if (inst && (inst.crashed || !inst.browser.connected || pageCrashed)) throw new BrowserCrashedError();
      throw err;
    } finally {
      clearTimeout(timer);
      finished = true;
      watchdog?.dispose();
      // After a timeout the context may still be on its way; close it whenever it arrives.
      // close() fails only when the browser is already gone, which closed it too.
      const closing = contextPromise?.then((c) => c.close()).catch(() => undefined);
      if (closing && inst?.browser.connected) await timeBound(closing, 5_000);
      if (counted) pages--;
      if (claimed && !inst) void warm.dispose(claimed); // failed before a browser was at hand
      if (inst) await browsers.endUse(inst);
      slots.release(owner);
      const usedProxy = proxy;
      if (usedProxy) warm.warm(opts.policy, (i) => prepare(i, usedProxy, opts.policy));
    }
  }

  const stats = (): PoolStats => {
    const s = slots.stats();
    return { open: pages, leased: s.active - (warm.present ? 1 : 0), queued: s.queued, capacity: s.capacity, renders, launches: browsers.launches, spare: warm.present ? 1 : 0 };
  };

  return {
    as: (owner) => ({ withPage: (opts, fn) => withPage({ ...opts, owner }, fn), checkTarget, stats }),
    withPage,
    checkTarget,
    stats,
    async canRender() {
      try {
        const inst = await browsers.instance();
        await inst.browser.version();
        return true;
      } catch (err) {
        log?.warn({ err }, 'the browser cannot render (readiness)');
        return false;
      }
    },
    browserPid: () => browsers.pid(),
    async close() {
      slots.close();
      warm.discard();
      await browsers.close();
      for (const p of proxies.values()) await (await p.catch(() => undefined))?.close();
      proxies.clear();
    },
  };
}

