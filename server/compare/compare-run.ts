import type { DiffStore } from '../diff/diff-store.js';
import { newDiffId } from '../diff/diff-store.js';
import { screenshotDiff } from '../diff/screenshot-diff.js';
import { settle } from '../errors/index.js';
import { checkSite, siteCheckDefaults, type LinkDeps } from '../links/site-check.js';
import type { SafeHttp } from '../net/safe-http.js';
import { httpWithTargetHeaders, type TargetHeaders } from '../net/target-headers.js';
import { measurePerf } from '../perf/perf-check.js';
import type { ScreenshotDeps } from '../render/screenshot.js';
import { auditSeo } from '../seo/seo-audit.js';
import type { TechDetector } from '../techstack/tech-detector.js';
import { checkTechstack } from '../techstack/techstack-check.js';
import { issuerFromTls } from '../techstack/cert-issuer.js';
import { checkTls } from '../tls/tls-check.js';
import type { CompareInput } from './compare-report.js';
import { countPageRequests } from './page-requests.js';
import type { PerfSide, Part, SideResults, VisualResult } from './types.js';

export interface CompareRunDeps {
  http: SafeHttp;
  /** The screenshots' settings, as every other entry point has them (`screenshotDeps`), the renders counted against the job's owner. */
  shots: ScreenshotDeps;
  detector: TechDetector;
  tlsCa?: readonly string[];
  diffs: DiffStore;
  /** Builds the public URL of a stored diff image. */
  diffImageUrl(id: string, image: 'baseline' | 'candidate' | 'diff'): string;
  /** Per request. @default 15000 */
  timeoutMs?: number;
  /** @default 5242880 */
  maxBytes?: number;
  /** Tasks run at once; the browser pool bounds the renders further. @default 3 */
  concurrency?: number;
  /** The link checker's dependencies, as GET /api/deadlinks has them (server/compose.ts), the target headers applied. */
  links: LinkDeps;
  /** Headers for the preview's origin (a protected preview): links, SEO, performance, tech stack and screenshots send them there only. */
  targetHeaders?: TargetHeaders;
}

export interface CompareProgress {
  done: number;
  total: number;
  /** The task that finished last, e.g. `seo on preview /pricing`. */
  last: string | null;
}

export interface CompareRun {
  baseline: SideResults;
  preview: SideResults;
  visual: Array<Part<VisualResult> & { path: string; width: number; height: number }>;
}

type SideName = 'baseline' | 'preview';
interface Task {
  name: string;
  run(): Promise<void>;
}

/**
 * Runs the chosen checks on both deployments, `concurrency` tasks at a time, and reports
 * progress after each. A check that fails on a side is recorded as that side's failure; only
 * a refused target (our rule, not the site's) fails the whole run.
 */
export async function runComparison(input: CompareInput, deps: CompareRunDeps, onProgress: (p: CompareProgress) => void | Promise<void>): Promise<CompareRun> {
  const out: CompareRun = { baseline: {}, preview: {}, visual: [] };
  const timeoutMs = deps.timeoutMs ?? 15_000;
  const maxBytes = deps.maxBytes ?? 5 * 1024 * 1024;
  const tasks: Task[] = [];
  const sides: Array<[SideName, string]> = [['baseline', input.baseline_url], ['preview', input.preview_url]];
  const wants = (c: string) => input.checks.includes(c as never);
  const http = httpWithTargetHeaders(deps.http, deps.targetHeaders);

  for (const [side, base] of sides) {
    const r = out[side];
    if (wants('links')) tasks.push({ name: `links on ${side}`, run: async () => void (r.links = await links(at(base, '/'), deps)) });
    // One handshake per side: the TLS check's certificate also gives the tech stack its issuer.
    let tlsRun: ReturnType<typeof tls> | undefined;
    const tlsOnce = () => (tlsRun ??= tls(base, deps, timeoutMs));
    if (wants('techstack')) {
      const certIssuer = () => (wants('tls') ? tlsOnce().then(issuerFromTls, () => []) : undefined);
      tasks.push({ name: `tech stack on ${side}`, run: async () => void (r.techstack = await settle(checkTechstack({ url: at(base, '/'), timeoutMs, maxBytes }, { http, detector: deps.detector, certIssuer: certIssuer() }))) });
    }
    if (wants('tls')) tasks.push({ name: `TLS on ${side}`, run: async () => void (r.tls = await tlsOnce()) });
    for (const path of input.paths) {
      if (wants('seo')) {
        tasks.push({ name: `SEO on ${side} ${path}`, run: async () => void ((r.seo ??= {})[path] = await settle(auditSeo({ url: at(base, path), timeoutMs, maxBytes }, { http }))) });
      }
      if (wants('perf')) tasks.push({ name: `performance on ${side} ${path}`, run: async () => void ((r.perf ??= {})[path] = await perf(at(base, path), deps, timeoutMs, maxBytes)) });
    }
  }
  if (wants('visual')) {
    for (const path of input.paths) {
      for (const vp of input.viewports) {
        tasks.push({ name: `screenshots of ${path} at ${vp.width}×${vp.height}`, run: async () => void out.visual.push(await visual(input, path, vp, deps)) });
      }
    }
  }

  let done = 0;
  await onProgress({ done, total: tasks.length, last: null });
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const task = tasks[next++];
      await task.run();
      done++;
      await onProgress({ done, total: tasks.length, last: task.name });
    }
  };
  await Promise.all(Array.from({ length: Math.min(deps.concurrency ?? 3, tasks.length) }, worker));
  out.visual.sort((a, b) => input.paths.indexOf(a.path) - input.paths.indexOf(b.path) || b.width - a.width);
  return out;
}

/** A path on a deployment whose URL may carry a base path (`https://x.dev/docs` + `/a` → `https://x.dev/docs/a`). */
export const at = (base: string, path: string) => base.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);

/** A side's links as GET /api/deadlinks checks them by default, so both give one site the same findings. */
const links = (url: string, deps: CompareRunDeps) => settle(checkSite({ ...siteCheckDefaults, url, gate: {} }, deps.links));

async function perf(url: string, deps: CompareRunDeps, timeoutMs: number, maxBytes: number): Promise<Part<PerfSide>> {
  return settle(
    (async () => {
      // The measured page's own body is what its sub-resources are counted in: no second fetch.
      const { report, body } = await measurePerf({ url, timeoutMs, maxBytes, targetHeaders: deps.targetHeaders }, { policy: deps.http.policy, ca: deps.tlsCa });
      return { report, requests: countPageRequests(body.toString('latin1')) };
    })(),
  );
}

async function tls(base: string, deps: CompareRunDeps, timeoutMs: number) {
  const u = new URL(base);
  if (u.protocol !== 'https:') return null;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  return settle(checkTls({ host, port: u.port ? Number(u.port) : 443, timeoutMs: Math.min(timeoutMs, 10_000) }, { policy: deps.http.policy, ca: deps.tlsCa }));
}

async function visual(input: CompareInput, path: string, vp: { width: number; height: number }, deps: CompareRunDeps) {
  const where = { path, width: vp.width, height: vp.height };
  const result = await settle(
    screenshotDiff(
      {
        baselineUrl: at(input.baseline_url, path),
        candidateUrl: at(input.preview_url, path),
        width: vp.width,
        height: vp.height,
        fullPage: true,
        threshold: 0.1,
        delay: 0,
        blockAds: false,
        hideSelectors: [],
        targetHeaders: deps.targetHeaders,
      },
      deps.shots,
    ),
  );
  if ('error' in result) return { ...result, ...where };
  const id = newDiffId();
  await deps.diffs.save(id, result.images);
  return {
    ...where,
    changed_ratio: result.changedRatio,
    changed_pixels: result.changedPixels,
    images: { baseline: deps.diffImageUrl(id, 'baseline'), candidate: deps.diffImageUrl(id, 'candidate'), diff: deps.diffImageUrl(id, 'diff') },
  };
}

const timeoutOf = (deps: CompareRunDeps) => deps.timeoutMs ?? 15_000;
