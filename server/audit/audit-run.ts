import type { SafeHttp } from '../net/safe-http.js';
import type { RenderPages } from '../render/browser-pool.js';
import { settle, targetErrorOf } from '../errors/index.js';
import { isFailure, type Part, type PartFailure } from '../errors/part-failure.js';
import { checkPerf, type PerfReport } from '../perf/perf-check.js';
import { auditSeo, type SeoReport } from '../seo/seo-audit.js';
import type { TechDetector } from '../techstack/tech-detector.js';
import { checkTechstack, type TechstackReport } from '../techstack/techstack-check.js';
import { issuerFromTls } from '../techstack/cert-issuer.js';
import { checkTls, type TlsReport } from '../tls/tls-check.js';

export interface AuditOptions {
  url: string;
  /** Add the browser-based SEO report. @default false */
  seo?: boolean;
  /** @default 15000 */
  timeoutMs?: number;
  /** @default 5242880 */
  maxBytes?: number;
}

export interface AuditDeps {
  http: SafeHttp;
  detector: TechDetector;
  tlsCa?: readonly string[];
  browser?: RenderPages;
}

export interface AuditReport {
  url: string;
  summary: {
    perf_grade: string | null;
    ssl_grade: string | null;
    seo_score: number | null;
    technology_count: number | null;
    parts_ok: string[];
    parts_failed: string[];
    /** The most important findings across the parts. */
    top_issues: string[];
    duration_ms: number;
  };
  techstack: Part<TechstackReport>;
  ssl: Part<TlsReport>;
  perf: Part<PerfReport>;
  seo?: Part<SeoReport>;
  timestamp: string;
}

/**
 * Runs tech stack, TLS and performance (and SEO when asked) for one URL at once.
 * A part that fails is reported in its place; a refused target fails the whole call, and so
 * does a page that neither the tech stack nor the performance check could fetch (its target
 * error), unless its certificate is why and the TLS part graded it.
 */
export async function runAudit(opts: AuditOptions, deps: AuditDeps): Promise<AuditReport> {
  const started = performance.now();
  const url = new URL(opts.url);
  deps.http.policy.assertUrl(url);
  const tlsPort = url.protocol === 'https:' && url.port ? Number(url.port) : 443;
  const tlsTimeout = Math.min(opts.timeoutMs ?? 15_000, 10_000);

  const tls = settle(checkTls({ host: url.hostname.replace(/^\[|\]$/g, ''), port: tlsPort, timeoutMs: tlsTimeout }, { policy: deps.http.policy, ca: deps.tlsCa }));
  // The TLS check's handshake already names the certificate's issuer, which the tech stack's certIssuer rules read.
  const certIssuer = url.protocol === 'https:' ? tls.then(issuerFromTls, () => []) : undefined;
  const [techstack, ssl, perf, seo] = await Promise.all([
    settle(checkTechstack({ url: opts.url, maxBytes: opts.maxBytes, timeoutMs: opts.timeoutMs }, { http: deps.http, detector: deps.detector, certIssuer })),
    tls,
    settle(checkPerf({ url: opts.url, timeoutMs: opts.timeoutMs, maxBytes: opts.maxBytes }, { policy: deps.http.policy, ca: deps.tlsCa })),
    opts.seo
      ? deps.browser
        ? settle(auditSeo({ url: opts.url, render: true, timeoutMs: opts.timeoutMs, maxBytes: opts.maxBytes }, { http: deps.http, browser: deps.browser }))
        : Promise.resolve<PartFailure>({ error: 'no browser is available on this server for the SEO audit', kind: 'unavailable' })
      : Promise.resolve(undefined),
  ]);

  // A certificate the pages fail on is what the TLS part explains: the audit answers with it.
  const explainedByTls = isFailure(perf) && perf.kind === 'tls' && !isFailure(ssl);
  if (isFailure(perf) && isFailure(techstack) && !explainedByTls) {
    const host = url.host;
    throw targetErrorOf(perf.kind, perf.kind === 'timeout' ? `${host} did not answer in time: ${perf.error}` : `${host} is unreachable: ${perf.error}`);
  }
  const parts: Record<string, unknown> = { techstack, ssl, perf, ...(seo ? { seo } : {}) };
  const ok = Object.entries(parts).filter(([, p]) => !isFailure(p)).map(([k]) => k);
  const failed = Object.keys(parts).filter((k) => !ok.includes(k));
  const topIssues = [
    ...(isFailure(ssl) ? [`TLS: ${ssl.error}`] : ssl.grade_issues.slice(0, 3).map((i) => `TLS: ${i}`)),
    ...(isFailure(perf) ? [] : perf.grade_issues.slice(0, 3).map((i) => `Performance: ${i}`)),
    ...(seo && !isFailure(seo) ? seo.recommendations.slice(0, 3).map((r) => `SEO: ${r}`) : []),
  ];
  return {
    url: opts.url,
    summary: {
      perf_grade: isFailure(perf) ? null : perf.grade,
      ssl_grade: isFailure(ssl) ? null : ssl.grade,
      seo_score: seo && !isFailure(seo) ? seo.score : null,
      technology_count: isFailure(techstack) ? null : techstack.technology_count,
      parts_ok: ok,
      parts_failed: failed,
      top_issues: topIssues,
      duration_ms: Math.round(performance.now() - started),
    },
    techstack,
    ssl,
    perf,
    ...(seo ? { seo } : {}),
    timestamp: new Date().toISOString(),
  };
}
