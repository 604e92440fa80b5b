import type { BrowserContext, CDPSession, HTTPRequest, HTTPResponse, Page } from 'puppeteer-core';
import { DomainError, TargetFailedError, TargetRefusedError, targetError } from '../../errors/index.js';
import type { SafetyProxy } from '../safety-proxy.js';
import type { Instance } from './browsers.js';
import type { MainNavigation } from './script-watchdog.js';

/** A context and page ready for one render. */
export interface Prepared {
  context: BrowserContext;
  page: Page;
  /** What the page's own navigations ran into; the lease reports it instead of the page's result. */
  guard: NavigationGuard;
  /** Whether the main frame waits for the network now (the script budget does not count that time). */
  navigation: MainNavigation;
}

/**
 * Refusals and proxy failures of the page's main-frame navigations (the URL asked for, its
 * redirects, script navigations). The safety proxy refuses them anyway; recording them here
 * lets the lease answer the same 400 as fetch mode instead of rendering the proxy's
 * refusal page.
 */
export interface NavigationGuard {
  failure?: DomainError;
}

/** Schemes a page may request; everything else (file:, chrome:, ftp:, …) is refused. */
const allowedScheme = /^(https?|data|blob|about):/i;

/** proxy-chain answers 590–599 when it cannot reach the upstream (its `badGatewayStatusCodes`). */
const proxyFailures: Record<number, string> = {
  593: 'the host name does not resolve',
  594: 'the connection was refused',
  595: 'the connection was reset',
  596: 'the connection broke',
};

/**
 * A fresh isolated context and page behind the policy's proxy, with the scheme filter and
 * the navigation guard on. `checkTarget` resolves a URL the way the proxy will and throws
 * a TargetRefusedError for a refused one.
 */
export async function newContextPage(
  inst: Instance,
  proxy: SafetyProxy,
  checkTarget: (url: string) => Promise<unknown>,
  onContext: (c: Promise<BrowserContext>) => void,
): Promise<Prepared> {
  const contextPromise = inst.browser.createBrowserContext({
    proxyServer: proxy.url,
    proxyBypassList: ['<-loopback>'],
    downloadBehavior: { policy: 'deny' },
  });
  onContext(contextPromise);
  const context = await contextPromise;
  const page = await context.newPage();
  const guard: NavigationGuard = {};
  // alert()/confirm() would block the page's script until the render times out; nobody is there to answer.
  page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
  // Popups would be pages nobody watches; the proxy covers them, but they cost memory.
  context.on('targetcreated', (target) => {
    if (target.type() === 'page') void target.page().then((p) => p?.close(), () => undefined);
  });
  await page.setRequestInterception(true);
  // Puppeteer runs 'request' listeners as intercept actions and awaits what they return, so
  // the navigation check may be async and still decide before the request goes out.
  page.on('request', async (req: HTTPRequest) => {
    if (req.isInterceptResolutionHandled()) return;
    // Cooperative interception: the ad blocker may add its own verdicts; a refusal wins.
    if (!allowedScheme.test(req.url())) return void req.abort('accessdenied', 100).catch(() => undefined);
    if (isMainDocument(req, page) && /^https?:/i.test(req.url())) await guardNavigation(req, guard, checkTarget);
    else void req.continue(req.continueRequestOverrides(), 0).catch(() => undefined);
  });
  page.on('response', (res: HTTPResponse) => {
    const reason = proxyFailures[res.status()] ?? (res.status() >= 590 ? 'the connection failed' : undefined);
    if (reason && isMainDocument(res.request(), page)) {
      guard.failure ??= new TargetFailedError(`${new URL(res.url()).host} could not be loaded: ${reason}`);
    }
  });
  // Without credentials, Chromium fails a Basic-auth challenge with ERR_INVALID_AUTH_CREDENTIALS
  // under interception; empty ones make it show the target's 401 page, which is what it serves.
  await page.authenticate({ username: '', password: '' });
  return { context, page, guard, navigation: followMainNavigation(page) };
}

/** From a main-frame navigation request until the target answers, the request fails or the frame commits. */
function followMainNavigation(page: Page): MainNavigation {
  const state = { pending: false, epoch: 0 };
  const set = (pending: boolean) => {
    state.pending = pending;
    state.epoch++;
  };
  page.on('request', (req: HTTPRequest) => isMainDocument(req, page) && set(true));
  page.on('response', (res: HTTPResponse) => isMainDocument(res.request(), page) && set(false));
  page.on('requestfailed', (req: HTTPRequest) => isMainDocument(req, page) && set(false));
  page.on('framenavigated', (frame) => frame === page.mainFrame() && set(false));
  return state;
}

async function guardNavigation(req: HTTPRequest, guard: NavigationGuard, checkTarget: (url: string) => Promise<unknown>) {
  try {
    await checkTarget(req.url());
  } catch (err) {
    // A refused address, or a name that does not resolve (the proxy would answer that with a
    // page of its own, a 404): the lease fails as fetch mode does.
    guard.failure = targetError(err, new URL(req.url()).host);
    await req.abort(err instanceof TargetRefusedError ? 'blockedbyclient' : 'namenotresolved', 100).catch(() => undefined);
    return;
  }
  await req.continue(req.continueRequestOverrides(), 0).catch(() => undefined);
}

const isMainDocument = (req: HTTPRequest, page: Page) =>
  req.isNavigationRequest() && req.frame() === page.mainFrame();

export interface LeaseLook {
  /** BCP 47 language: Accept-Language header, navigator.language and the Intl locale. */
  locale?: string;
  /** Present a mobile (Android Chrome) user agent. */
  mobile?: boolean;
}

/** What differs per render: user agent (mobile or not) and language. */
export async function applyLeaseLook(cdp: CDPSession, inst: Instance, { locale, mobile }: LeaseLook): Promise<void> {
  await cdp.send('Network.setUserAgentOverride', {
    userAgent: mobile ? mobileAgent(inst.userAgent) : inst.userAgent,
    ...(locale ? { acceptLanguage: locale } : {}),
  });
  if (locale) {
    await cdp.send('Emulation.setLocaleOverride', { locale: locale.split(',')[0].split(';')[0].trim() }).catch(() => undefined);
  }
}

/** The desktop agent's Chrome version on an Android phone, as mobile sites expect. */
const mobileAgent = (desktop: string) =>
  desktop.replace(/\([^)]*\)/, '(Linux; Android 14; Pixel 7)').replace(/ Safari\//, ' Mobile Safari/');
