import type { HTTPResponse, Page, PuppeteerLifeCycleEvent } from 'puppeteer-core';
import { DomainError, TargetFailedError, TargetTimeoutError, targetError } from '../errors/index.js';

export interface OpenPageOptions {
  /** Which event ends the navigation. */
  waitUntil: PuppeteerLifeCycleEvent;
  timeoutMs: number;
}

/**
 * Navigates a leased page to `url` and words a failure as every check does (screenshots,
 * rendered SEO and tech stack): a timeout says whether the target answered at all or its
 * page did not finish loading, other failures are the fetch-mode target errors.
 */
export async function openPage(page: Page, url: string, { waitUntil, timeoutMs }: OpenPageOptions): Promise<HTTPResponse | null> {
  let answered = false;
  const onResponse = (res: HTTPResponse) => {
    if (res.request().isNavigationRequest() && res.frame() === page.mainFrame()) answered = true;
  };
  page.on('response', onResponse);
  try {
    return await page.goto(url, { waitUntil, timeout: timeoutMs });
  } catch (err) {
    throw navigationError(err, new URL(url).host, timeoutMs, answered);
  } finally {
    page.off('response', onResponse);
  }
}

/** `host`: the target as the caller gave it; `answered`: its document's response had arrived. */
function navigationError(err: unknown, host: string, timeoutMs: number, answered: boolean): DomainError {
  if (err instanceof DomainError) return err;
  if ((err as Error).name === 'TimeoutError') {
    return new TargetTimeoutError(
      answered
        ? `${host} answered, but its page did not finish loading within ${timeoutMs} ms (a very large or very slow document); try a lighter page`
        : `${host} did not answer in time: timed out (no response within ${timeoutMs} ms)`,
    );
  }
  const code = /net::(ERR_[A-Z_]+)/.exec((err as Error).message ?? String(err))?.[1];
  if (code === 'ERR_TUNNEL_CONNECTION_FAILED' || code === 'ERR_ACCESS_DENIED') {
    // The safety proxy refused the address the name resolved to (or could not reach it).
    return new TargetFailedError(`${host} is unreachable or not an allowed address`);
  }
  if (code === 'ERR_INVALID_AUTH_CREDENTIALS') return new TargetFailedError(`${host} refused the HTTP credentials; check http_username and http_password`);
  if (code === 'ERR_ABORTED') {
    return new TargetFailedError(`the navigation was aborted: ${host} sent no page the browser shows (it started a download or closed the page)`);
  }
  return targetError(err, host); // DNS, refused, reset, certificate: as every other check words them
}
