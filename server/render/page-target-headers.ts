import type { HTTPRequest, Page } from 'puppeteer-core';
import type { RenderPages } from './browser-pool.js';
import { originOf, type TargetHeaders } from '../net/target-headers.js';

/**
 * Adds the caller's target headers to the page's requests for the target's origin, and to no
 * other (third-party scripts, images, frames, a redirect's next hop: Chromium pauses each hop
 * as its own request, and DevTools' header overrides do not carry over to redirects).
 * Cooperative interception keeps the last `continue`'s overrides whatever its priority, and
 * every handler of the pool passes `continueRequestOverrides()` on, so these survive them;
 * a refusal (abort at 100) or a stubbed answer still wins.
 */
export function sendTargetHeaders(page: Page, th: TargetHeaders): void {
  page.on('request', (req: HTTPRequest) => {
    if (req.isInterceptResolutionHandled() || originOf(req.url()) !== th.origin) return;
    const headers = { ...req.headers() };
    for (const [k, v] of Object.entries(th.headers)) headers[k.toLowerCase()] = v;
    void req.continue({ ...req.continueRequestOverrides(), headers }, 0).catch(() => undefined);
  });
}

/** `pages` whose every lease sends the target headers (the link checker's renders of one check). */
export function pagesWithTargetHeaders(pages: RenderPages, th: TargetHeaders | undefined): RenderPages {
  if (!th) return pages;
  return { ...pages, withPage: (opts, fn) => pages.withPage({ ...opts, targetHeaders: th }, fn) };
}
