import puppeteer, { type Browser, type BrowserContext, type HTTPRequest, type Page } from 'puppeteer-core';
import { HttpError, tooMany } from '../api/errors.js';
import type { Logger } from '../log.js';
import type { TargetPolicy } from '../net/target-policy.js';
import { startSafetyProxy, type HostOverride, type SafetyProxy } from './safety-proxy.js';

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

export interface LeaseOptions {
  /** Target-safety rules every request of the page must pass. */
  policy: TargetPolicy;
  /** Cap of this lease in ms; defaults to the pool's. */
  timeoutMs?: number;
  /** BCP 47 language: Accept-Language header, navigator.language and the Intl locale. */
  locale?: string;
  /** Present a mobile (Android Chrome) user agent. */
  mobile?: boolean;
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

export interface BrowserPool {
  /**
   * Leases an isolated incognito context + page, runs `fn`, and always closes the context.
   * All page traffic goes through the target-safety proxy for `opts.policy`.
   * Throws HttpError 429 (Retry-After) when the wait queue is full, 504 on timeout.
   */
  withPage<T>(opts: LeaseOptions, fn: (page: Page) => Promise<T>): Promise<T>;
  /**
   * Checks a URL the way the page's proxy will (scheme, IP literal, resolved addresses) before
   * a lease is spent on it; throws BlockedTargetError or the DNS error.
   */
  checkTarget(policy: TargetPolicy, url: string): Promise<URL>;
  stats(): PoolStats;
  /** Kills the browser process (tests of crash recovery). */
  browserPid(): number | undefined;
  close(): Promise<void>;
}

/** Flags that work offline, headless and as root (see notes/dependency-probes.md §1, §6). */
const baseArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-breakpad',
  '--disable-domain-reliability',
  '--disable-features=Translate,OptimizationHints,MediaRouter,InterestFeedContentSuggestions,CertificateTransparencyComponentUpdater,AutofillServerCommunication',
  '--no-first-run',
  '--no-default-browser-check',
  '--metrics-recording-only',
  '--mute-audio',
  '--hide-scrollbars',
  '--no-pings',
  '--force-color-profile=srgb',
  // WebRTC UDP would not go through the safety proxy.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/** Schemes a page may request; everything else (file:, chrome:, ftp:, …) is refused. */
const allowedScheme = /^(https?|data|blob|about):/i;

interface Instance {
  browser: Browser;
  userAgent: string;
  renders: number;
  leases: number;
  retiring: boolean;
}

interface Prepared {
  context: BrowserContext;
  page: Page;
}

/** A context + page made ahead of demand for one policy on one browser instance. */
interface Spare {
  policy: TargetPolicy;
  inst: Instance;
  ready: Promise<Prepared>;
}

interface Waiter {
  resolve(): void;
  reject(err: Error): void;
}

export function createBrowserPool(options: BrowserPoolOptions, deps: BrowserPoolDeps = {}): BrowserPool {
  const { concurrency, queue: queueMax, recycleAfter, log } = options;
  const waiters: Waiter[] = [];
  const proxies = new Map<TargetPolicy, Promise<SafetyProxy>>();
  let active = 0;
  let renders = 0;
  let launches = 0;
  let current: Promise<Instance> | undefined;
  let latest: Instance | undefined;
  let pages = 0;
  let closed = false;
  let spare: Spare | undefined;

  const acquire = async (waitMs: number): Promise<void> => {
    if (closed) throw new HttpError(503, 'the renderer is shutting down');
    if (active < concurrency) {
      active++;
      return;
    }
    if (spare) {
      // The spare holds a slot; a render that needs it wins, and the slot passes to it.
      discardSpare();
      return;
    }
    if (waiters.length >= queueMax) {
      throw tooMany(`the rendering queue is full (${waiters.length} renders waiting); retry shortly`, 5);
    }
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject,
      };
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        reject(tooMany(`no renderer became free within ${waitMs} ms; retry shortly`, 5));
      }, waitMs);
      waiters.push(waiter);
    });
  };

  // The slot passes straight to the next waiter, so `active` never dips below the cap while some wait.
  const release = () => {
    const next = waiters.shift();
    if (next) next.resolve();
    else active--;
  };

  const launch = async (): Promise<Instance> => {
    const browser = await puppeteer.launch({
      executablePath: options.chromePath,
      headless: true,
      args: [...baseArgs, ...(options.extraArgs ?? [])],
      defaultViewport: null,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      protocolTimeout: Math.max(30_000, options.timeoutMs * 2),
    });
    launches++;
    // Sites refuse "HeadlessChrome"; present the plain Chrome token.
    const userAgent = (await browser.userAgent()).replace('HeadlessChrome', 'Chrome');
    const instance: Instance = { browser, userAgent, renders: 0, leases: 0, retiring: false };
    latest = instance;
    browser.on('disconnected', () => {
      if (!instance.retiring) log?.warn({ pid: browser.process()?.pid }, 'browser disconnected; relaunching on next render');
      instance.retiring = true;
      void current?.then((i) => {
        if (i === instance) current = undefined;
      }, () => undefined);
    });
    return instance;
  };

  const instance = async (): Promise<Instance> => {
    current ??= launch().catch((err) => {
      current = undefined;
      throw err;
    });
    const inst = await current;
    if (inst.retiring || !inst.browser.connected) {
      if (current && (await current) === inst) current = undefined;
      return instance();
    }
    return inst;
  };

  const retire = (inst: Instance) => {
    inst.retiring = true;
    void current?.then((i) => {
      if (i === inst) current = undefined;
    }, () => undefined);
  };

  const proxyFor = (policy: TargetPolicy): Promise<SafetyProxy> => {
    let proxy = proxies.get(policy);
    if (!proxy) {
      proxy = startSafetyProxy(policy, deps.hostOverride);
      proxy.catch(() => proxies.delete(policy));
      proxies.set(policy, proxy);
    }
    return proxy;
  };

  /** A fresh isolated context and page behind the policy's proxy, with the scheme filter on. */
  async function newContextPage(inst: Instance, proxy: SafetyProxy, onContext: (c: Promise<BrowserContext>) => void): Promise<Prepared> {
    const contextPromise = inst.browser.createBrowserContext({
      proxyServer: proxy.url,
      proxyBypassList: ['<-loopback>'],
      downloadBehavior: { policy: 'deny' },
    });
    onContext(contextPromise);
    const context = await contextPromise;
    const page = await context.newPage();
    // Popups would be pages nobody watches; the proxy covers them, but they cost memory.
    context.on('targetcreated', (target) => {
      if (target.type() === 'page') void target.page().then((p) => p?.close(), () => undefined);
    });
    await page.setRequestInterception(true);
    page.on('request', (req: HTTPRequest) => {
      if (req.isInterceptResolutionHandled()) return;
      // Cooperative interception: the ad blocker may add its own verdicts; a refusal wins.
      if (allowedScheme.test(req.url())) void req.continue(req.continueRequestOverrides(), 0).catch(() => undefined);
      else void req.abort('accessdenied', 100).catch(() => undefined);
    });
    // Without credentials, Chromium fails a Basic-auth challenge with ERR_INVALID_AUTH_CREDENTIALS
    // under interception; empty ones make it show the target's 401 page, which is what it serves.
    await page.authenticate({ username: '', password: '' });
    return { context, page };
  }

  /** What differs per render: user agent (mobile or not) and language. */
  async function applyLeaseOptions(page: Page, inst: Instance, { locale, mobile }: LeaseOptions) {
    const cdp = await page.createCDPSession();
    await cdp.send('Network.setUserAgentOverride', {
      userAgent: mobile ? mobileAgent(inst.userAgent) : inst.userAgent,
      ...(locale ? { acceptLanguage: locale } : {}),
    });
    if (locale) {
      await cdp.send('Emulation.setLocaleOverride', { locale: locale.split(',')[0].split(';')[0].trim() }).catch(() => undefined);
    }
  }

  /** Drops the spare (its context closes in the background); its slot is the caller's to pass on or release. */
  function discardSpare() {
    const s = spare;
    if (!s) return;
    spare = undefined;
    void s.ready.then((p) => p.context.close()).catch(() => undefined).finally(() => endUse(s.inst));
  }

  /** Hands the spare, with its slot, to a render of `policy`; undefined when there is none that fits. */
  function claimSpare(policy: TargetPolicy): Spare | undefined {
    const s = spare;
    if (!s || s.policy !== policy || s.inst.retiring || !s.inst.browser.connected) return undefined;
    spare = undefined;
    return s;
  }

  /** The claimed spare's context and page, if they are still usable on `inst`; else closes them. */
  async function usableSpare(s: Spare, inst: Instance): Promise<Prepared | undefined> {
    const prepared = s.inst === inst ? await s.ready.catch(() => undefined) : undefined;
    if (prepared && !prepared.page.isClosed()) return prepared;
    void s.ready.then((p) => p.context.close()).catch(() => undefined);
    return undefined;
  }

  /**
   * After a render, while a slot is free and nobody waits, prepares the next render's context
   * and page. Not during a render: on two cores the spare's creation slows the render as much
   * as it saves the next one (measured).
   */
  function warmSpare(policy: TargetPolicy, proxy: SafetyProxy) {
    if (options.warmSpare === false || closed || spare || waiters.length || active >= concurrency) return;
    const inst = latest;
    if (!inst || inst.retiring || !inst.browser.connected) return;
    active++;
    inst.leases++;
    const ready = newContextPage(inst, proxy, () => undefined);
    ready.catch(() => undefined);
    spare = { policy, inst, ready };
  }

  /** One user of an instance is done; a retired instance closes after its last. */
  function endUse(inst: Instance) {
    inst.leases--;
    if (inst.retiring && inst.leases === 0) {
      void inst.browser.close().catch((err) => log?.warn({ err }, 'closing a retired browser failed'));
    }
  }

  async function withPage<T>(opts: LeaseOptions, fn: (page: Page) => Promise<T>): Promise<T> {
    const timeoutMs = opts.timeoutMs ?? options.timeoutMs;
    // A fitting spare comes with its slot; otherwise wait for one.
    const claimed = claimSpare(opts.policy);
    if (!claimed) await acquire(options.timeoutMs);
    let inst: Instance | undefined;
    let timer: NodeJS.Timeout | undefined;
    let contextPromise: Promise<BrowserContext> | undefined;
    let proxy: SafetyProxy | undefined;
    let finished = false;
    let counted = false;
    try {
      proxy = await proxyFor(opts.policy);
      inst = await instance();
      inst.leases++;
      if (claimed) endUse(claimed.inst); // the spare's hold on its browser passes to this render's
      inst.renders++;
      renders++;
      if (inst.renders >= recycleAfter) retire(inst);
      const leased = inst;
      const leasedProxy = proxy;
      const work = (async () => {
        const reused = claimed ? await usableSpare(claimed, leased) : undefined;
        if (reused) contextPromise = Promise.resolve(reused.context);
        const { page } = reused ?? (await newContextPage(leased, leasedProxy, (c) => (contextPromise = c)));
        if (finished) throw new Error('lease already ended');
        pages++;
        counted = true;
        await applyLeaseOptions(page, leased, opts);
        return fn(page);
      })();
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new HttpError(504, `rendering timed out after ${timeoutMs} ms`)),
          timeoutMs,
        );
      });
      work.catch(() => undefined); // after a timeout its rejection (context closed) is expected
      return await Promise.race([work, timeout]);
    } catch (err) {
      if (err instanceof HttpError) throw err;
      if (inst && !inst.browser.connected) {
        throw new HttpError(503, 'the browser stopped during the render; retry', 'browser_crashed', { 'Retry-After': '1' });
      }
      throw err;
    } finally {
      clearTimeout(timer);
      finished = true;
      // After a timeout the context may still be on its way; close it whenever it arrives.
      // close() fails only when the browser is already gone, which closed it too.
      const closing = contextPromise?.then((c) => c.close()).catch(() => undefined);
      if (inst?.browser.connected) await Promise.race([closing, delay(5_000)]);
      if (counted) pages--;
      if (claimed && !inst) {
        // Failed before a browser was at hand: the claimed spare is of no use.
        void claimed.ready.then((p) => p.context.close()).catch(() => undefined);
        endUse(claimed.inst);
      }
      if (inst) {
        inst.leases--;
        if (inst.retiring && inst.leases === 0) {
          await inst.browser.close().catch((err) => log?.warn({ err }, 'closing a retired browser failed'));
        }
      }
      release();
      if (proxy) warmSpare(opts.policy, proxy);
    }
  }

  const checkTarget = async (policy: TargetPolicy, url: string): Promise<URL> => {
    const target = policy.assertUrl(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    await new Promise<void>((resolve, reject) =>
      policy.lookup(deps.hostOverride?.(host) ?? host, { all: true }, (err) => (err ? reject(err) : resolve())),
    );
    return target;
  };

  return {
    withPage,
    checkTarget,
    stats: () => ({ open: pages, leased: active - (spare ? 1 : 0), queued: waiters.length, capacity: concurrency, renders, launches, spare: spare ? 1 : 0 }),
    browserPid: () => (latest?.browser.connected ? latest.browser.process()?.pid : undefined),
    async close() {
      closed = true;
      for (const w of waiters.splice(0)) w.reject(new HttpError(503, 'the renderer is shutting down'));
      discardSpare();
      const inst = await current?.catch(() => undefined);
      current = undefined;
      await inst?.browser.close().catch(() => undefined);
      for (const p of proxies.values()) await (await p.catch(() => undefined))?.close();
      proxies.clear();
    },
  };
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/** The desktop agent's Chrome version on an Android phone, as mobile sites expect. */
const mobileAgent = (desktop: string) =>
  desktop.replace(/\([^)]*\)/, '(Linux; Android 14; Pixel 7)').replace(/ Safari\//, ' Mobile Safari/');
