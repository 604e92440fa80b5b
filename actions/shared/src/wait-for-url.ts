import * as core from '@actions/core';

/**
 * Waiting for a deployment before it is checked: a preview is often built while the workflow
 * starts, and a check of a preview that is not up yet fails for nothing. The runner polls (not
 * the service, whose quota and limits a poll would spend) with exponential backoff.
 */
export interface WaitOptions {
  url: string;
  /** Longest wait in all, in s. */
  timeoutSeconds: number;
  /** The target headers: a protected preview answers 401/403 without them. */
  headers?: Record<string, string>;
}

export interface Waited {
  /** The status it answered when it counted as up. */
  status: number;
  waitedMs: number;
  attempts: number;
}

/** First pause between tries and the longest one, in ms. */
const FIRST_PAUSE_MS = 500;
const MAX_PAUSE_MS = 15_000;
/** Longest single try: a host that accepts connections and never answers is retried, not waited on. */
const TRY_MS = 10_000;

/**
 * Up: any 2xx or 3xx (a redirect means the server runs; it is not followed, so a login page on
 * another host does not count). 401 and 403 count only without target headers: a protected
 * preview is up, and the check will report what it answers; with headers they mean the headers
 * are not accepted yet (Vercel takes a moment to apply a new bypass secret), so waiting goes on.
 * 404 (a host whose deployment is not there yet), 5xx and network failures: not yet.
 */
export const isUp = (status: number, withHeaders: boolean) => (status >= 200 && status < 400) || (!withHeaders && (status === 401 || status === 403));

/** Polls `url` until it is up; throws, saying what it last answered, when `timeoutSeconds` pass first. */
export async function waitForUrl(o: WaitOptions): Promise<Waited> {
  const started = Date.now();
  const deadline = started + o.timeoutSeconds * 1000;
  const withHeaders = !!o.headers && Object.keys(o.headers).length > 0;
  let last = 'no answer';
  for (let attempt = 1, pause = FIRST_PAUSE_MS; ; attempt++, pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
    const status = await tryOnce(o.url, o.headers, Math.max(1000, Math.min(TRY_MS, deadline - Date.now())));
    if (typeof status === 'number' && isUp(status, withHeaders)) return { status, waitedMs: Date.now() - started, attempts: attempt };
    last = typeof status === 'number' ? `answered ${status}` : status;
    const left = deadline - Date.now();
    if (left <= 0) {
      const hint = withHeaders && /answered 40[13]/.test(last) ? ' Are target_headers right (a current bypass secret)?' : '';
      throw new Error(
        `wait_for_url: ${o.url} was not up within wait_timeout (${o.timeoutSeconds} s, ${attempt} tries; last: ${last}).${hint} Raise wait_timeout if the deployment takes longer, or check that it succeeded.`,
      );
    }
    core.info(`${o.url}: ${last}; trying again in ${Math.round(Math.min(pause, left) / 100) / 10} s.`);
    await new Promise((r) => setTimeout(r, Math.min(pause, left)));
  }
}

/** The status of one GET, or the network failure's code. */
async function tryOnce(url: string, headers: Record<string, string> | undefined, timeoutMs: number): Promise<number | string> {
  try {
    const res = await fetch(url, { headers: { 'user-agent': 'sitelens-action', ...headers }, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return res.status;
  } catch (err) {
    let e = err as { code?: string; name?: string; cause?: unknown };
    while (e?.cause) e = e.cause as typeof e;
    return e?.code ?? (e?.name === 'TimeoutError' ? 'no answer in time' : 'network error');
  }
}

/** Waits when the settings ask to, and says how long it took in the log and the job summary. */
export async function waitWhenAsked(wait: { timeoutSeconds: number } | undefined, url: string, headers: Record<string, string> | undefined, hasSummary: boolean): Promise<void> {
  if (!wait) return;
  core.info(`Waiting up to ${wait.timeoutSeconds} s for ${url} to be up (wait_for_url).`);
  const w = await waitForUrl({ url, timeoutSeconds: wait.timeoutSeconds, headers });
  const line = `Waited ${formatSeconds(w.waitedMs)} for ${url} to be up (it answered ${w.status} after ${w.attempts} ${w.attempts === 1 ? 'try' : 'tries'}).`;
  core.info(line);
  if (hasSummary) await core.summary.addRaw(`${line}\n\n`, true).write();
}

const formatSeconds = (ms: number) => (ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`);
