import { targetError } from '../errors/index.js';
import type { TargetPolicy } from '../net/target-policy.js';
import { gradePerf, type PerfGrade } from './perf-grade.js';
import { DEFAULT_BODY_LIMIT, timedRequest, type HopTimings } from './timed-request.js';
import { originOf, type TargetHeaders } from '../net/target-headers.js';

export interface PerfOptions {
  url: string;
  /** @default true */
  followRedirects?: boolean;
  /** Hops followed at most. @default 10 */
  maxRedirects?: number;
  /** Per hop. @default 15000 */
  timeoutMs?: number;
  /** @default 5242880 */
  maxBytes?: number;
  /** A protected target's headers: each hop to their origin carries them, a hop elsewhere does not. */
  targetHeaders?: TargetHeaders;
}

export interface PerfReport {
  url: string;
  final_url: string;
  status_code: number;
  grade: PerfGrade;
  score: number;
  grade_issues: string[];
  response_time_ms: number;
  response_size_bytes: number;
  transfer_size_bytes: number;
  compression: string | null;
  content_type: string;
  server: string;
  headers: Record<string, string>;
  redirected: boolean;
  redirects: Array<{ url: string; status_code: number; location: string; time_ms: number }>;
  timings: HopTimings & { redirect_ms: number };
  http_version: string;
  ip_address: string;
  truncated: boolean;
  timestamp: string;
}

/** Times one page load (following redirects unless told not to) and grades it; a page out of reach throws its target error. */
export async function checkPerf(opts: PerfOptions, deps: PerfDeps): Promise<PerfReport> {
  return (await timePage(opts, deps, false)).report;
}

/** `checkPerf`'s report and the page's decoded body as measured, so a caller that reads the page does not fetch it again. */
export async function measurePerf(opts: PerfOptions, deps: PerfDeps): Promise<{ report: PerfReport; body: Buffer }> {
  const { report, body } = await timePage(opts, deps, true);
  return { report, body: body ?? Buffer.alloc(0) };
}

type PerfDeps = { policy: TargetPolicy; ca?: readonly string[] };

async function timePage(opts: PerfOptions, deps: PerfDeps, keepBody: boolean): Promise<{ report: PerfReport; body?: Buffer }> {
  const follow = opts.followRedirects ?? true;
  const maxRedirects = opts.maxRedirects ?? 10;
  const redirects: PerfReport['redirects'] = [];
  let url = opts.url;
  let redirectMs = 0;
  for (;;) {
    const headers = opts.targetHeaders && originOf(url) === opts.targetHeaders.origin ? opts.targetHeaders.headers : undefined;
    const hop = await timedRequest({ url, timeoutMs: opts.timeoutMs, maxBytes: opts.maxBytes, keepBody, headers }, deps).catch((err: unknown) => {
      throw targetError(err, new URL(opts.url).host);
    });
    const location = hop.headers.location;
    if (follow && hop.status >= 300 && hop.status < 400 && location && redirects.length < maxRedirects) {
      const next = new URL(location, hop.url).href;
      redirects.push({ url: hop.url, status_code: hop.status, location: next, time_ms: hop.timings.total_ms });
      redirectMs += hop.timings.total_ms;
      url = next;
      continue;
    }
    const total = Math.round((redirectMs + hop.timings.total_ms) * 10) / 10;
    const contentType = hop.headers['content-type'] ?? '';
    const encoding = hop.headers['content-encoding'] ?? '';
    const graded = gradePerf({
      status: hop.status,
      responseTimeMs: total,
      redirects: redirects.length,
      contentType,
      contentEncoding: encoding,
      // A body cut at the limit is at least that large, whatever the decoder had produced by then.
      decodedBytes: hop.truncated ? Math.max(hop.decodedBytes, opts.maxBytes ?? DEFAULT_BODY_LIMIT) : hop.decodedBytes,
      truncated: hop.truncated,
      headers: hop.headers,
    });
    const report: PerfReport = {
      url: opts.url,
      final_url: hop.url,
      status_code: hop.status,
      grade: graded.grade,
      score: graded.score,
      grade_issues: graded.issues,
      response_time_ms: total,
      response_size_bytes: hop.decodedBytes,
      transfer_size_bytes: hop.transferBytes,
      compression: encoding || null,
      content_type: contentType,
      server: hop.headers.server ?? '',
      headers: hop.headers,
      redirected: redirects.length > 0,
      redirects,
      timings: { ...hop.timings, redirect_ms: Math.round(redirectMs * 10) / 10 },
      http_version: hop.httpVersion,
      ip_address: hop.remoteAddress,
      truncated: hop.truncated,
      timestamp: new Date().toISOString(),
    };
    return { report, body: hop.body };
  }
}
