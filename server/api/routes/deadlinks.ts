import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { OverLimitError, TargetFailedError, TargetRefusedError, TargetTimeoutError } from '../../errors/index.js';
import { defineRoute, errorResponse } from '../route.js';
import { openEventStream } from '../event-stream.js';
import { deadlinkDocumentRoutes } from './deadlinks-documents.js';
import { formatReport, linkFilters, sendReport } from './deadlinks-output.js';
import { deadlinkReport, deadlinksQuery, siteStatus, statusPageQuery, statusQuery } from './deadlinks-schemas.js';
import { siteStatusPage } from '../../public/site-status-page.js';
import { renderBadge } from '../../links/badge.js';
import { checkReadme } from '../../links/github-readme.js';
import type { DeadLinkReport } from '../../links/report.js';
import { checkSite, type LinkDeps } from '../../links/site-check.js';
import type { RenderOwner } from '../../render/browser-pool.js';
import type { CrawlProgress } from '../../links/site-crawler.js';
import type { SiteStatus } from '../../links/site-status.js';
import { widgetScript } from '../../public/widget.js';
import { pause } from '../../time-bounds.js';
import { scopeTargetHeaders } from '../../net/target-headers.js';

type Query = z.infer<typeof deadlinksQuery>;

/** GET /api/deadlinks, its cached status (widget), the SVG badge and /widget.js. */
export function deadlinkRoutes(deps: AppDeps) {
  const c = deps.config;
  const statuses = deps.siteStatuses;

  /** One check; `linkDeps` carries the caller's share of the browser. */
  const run = async (q: Query, linkDeps: LinkDeps, onProgress?: (p: CrawlProgress) => void, signal?: AbortSignal): Promise<DeadLinkReport> => {
    const gate = { threshold: q.threshold, maxBroken: q.max_broken };
    const filters = linkFilters(q);
    if (q.github) {
      return checkReadme(
        { repository: q.github, ref: q.ref, suggestFixes: q.suggest_fixes, maxDurationMs: q.max_duration * 1000, checkOnly: q.check_only, fragments: q.fragments, gate, ...filters },
        linkDeps,
        { apiUrl: c.GITHUB_API_URL, token: c.GITHUB_TOKEN },
      );
    }
    const report = await checkSite(
      { url: q.url ?? '', mode: q.mode, suggestFixes: q.suggest_fixes, maxPages: q.max_pages, maxDurationMs: q.max_duration * 1000, checkOnly: q.check_only, render: q.render, fragments: q.fragments, gate, onProgress, signal, ...filters },
      linkDeps,
    );
    // A protected site's report is its owner's: the public status (widget, badge) never shows it.
    if (!q.check_only && !q.target_headers) await statuses.save(report);
    return report;
  };

  /** The cached status of a site; on a miss one quick check, shared by concurrent visitors and limited per IP. */
  const statusOf = async (url: string, ip: string, owner: RenderOwner): Promise<SiteStatus & { cached: boolean }> => {
    const cached = await statuses.load(url);
    if (cached) return { ...cached, cached: true };
    if (!(await statuses.allowFreshCheck(ip, c.LINK_STATUS_CHECKS_PER_HOUR))) {
      throw new OverLimitError(`no cached status for this url and the fresh checks allowed per hour (${c.LINK_STATUS_CHECKS_PER_HOUR}) are used up; retry within the hour, or run GET /api/deadlinks with a key`, 3600);
    }
    if (await statuses.lock(url, 60)) {
      try {
        await run({ url, mode: 'quick', max_pages: 1, max_duration: 20, format: 'json', fragments: 'warn', render: false, suggest_fixes: false, exclude: undefined, accept: undefined }, deps.links(owner));
      } finally {
        await statuses.unlock(url);
      }
    } else {
      for (let i = 0; i < 100 && !(await statuses.load(url)); i++) await pause(250);
    }
    const fresh = await statuses.load(url);
    if (!fresh) throw new TargetFailedError('url could not be checked; retry in a minute');
    return { ...fresh, cached: false };
  };

  const badgeUrl = (url: string) => `${c.baseUrl}/api/deadlinks/badge?url=${encodeURIComponent(url)}`;

  return [
    ...deadlinkDocumentRoutes(deps),
    defineRoute({
      api: 'deadlinks',
      method: 'get',
      path: '/api/deadlinks',
      summary: 'Check a site, a page or a GitHub README for broken links',
      description:
        'Full mode crawls same-site pages in Chromium; quick mode checks one page without a browser; `github=owner/repo` checks the README. HEAD first with GET fallback, keep-alive, per-host concurrency and Retry-After backoff, redirect chains hop by hop, stable error kinds, bot protection reported separately. With `Accept: text/event-stream` the response is a stream of `progress` events (`{pages_crawled, pages_queued, links_found, links_checked, broken_so_far}`) followed by one `report` event (the JSON report) and, for other formats, an `output` event (`{format, content}`); failures after the stream started arrive as an `error` event.',
      key: 'optional',
      limit: 'deadlinks',
      query: deadlinksQuery,
      responses: {
        200: {
          description: 'The dead-link report in the requested format',
          content: {
            'application/json': deadlinkReport,
            'text/csv': 'text',
            'text/plain': 'text',
            'text/markdown': 'text',
            'application/sarif+json': 'text',
            'text/event-stream': 'text',
          },
        },
        400: errorResponse('Invalid parameter, or the url is a refused target (private address)'),
        404: errorResponse('GitHub repository or README not found'),
        429: errorResponse('Rate limit exceeded (keyless: 1 check per 30 minutes per IP)'),
        502: errorResponse('The url (or the GitHub API) could not be reached'),
        504: errorResponse('The url timed out'),
      },
      async handler({ query, owner, req, res }) {
        const linkDeps = deps.links(owner, { cacheTtl: query.cache_ttl, targetHeaders: query.url ? scopeTargetHeaders(query.url, query.target_headers) : undefined });
        if (wantsStream(req)) return stream(req, res, query, (q, onProgress, signal) => run(q, linkDeps, onProgress, signal), `${c.baseUrl}/`);
        const report = await run(query, linkDeps);
        sendReport(res, query.format, report, `${c.baseUrl}/`);
      },
    }),
    defineRoute({
      api: 'deadlinks',
      method: 'get',
      path: '/api/deadlinks/status',
      summary: 'Cached link status of a site (for the widget)',
      description: `The latest status of a site from any completed check (full or quick), kept ${c.LINK_STATUS_TTL_SECONDS} s. On a miss one quick check runs (shared by concurrent callers; ${c.LINK_STATUS_CHECKS_PER_HOUR} misses per IP per hour), so page visitors of a site with the widget do not use the keyless crawl limit. CORS: any origin.`,
      key: 'none',
      query: statusPageQuery,
      responses: {
        200: { description: 'Status', content: { 'application/json': siteStatus, 'text/html': 'text' } },
        400: errorResponse('Invalid url'),
        429: errorResponse('Too many uncached checks from this address'),
        502: errorResponse('The url could not be checked'),
      },
      async handler({ query, owner, req, res }) {
        const status = await statusOf(query.url, req.ip ?? 'unknown', owner);
        res.set('Cache-Control', 'public, max-age=300');
        if (query.format === 'html') {
          const json = `${c.baseUrl}/api/deadlinks/status?url=${encodeURIComponent(query.url)}`;
          res.type('html').send(siteStatusPage(status, { badge: badgeUrl(query.url), json, docs: `${c.baseUrl}/` }));
          return;
        }
        res.json({ ...status, badge_url: badgeUrl(query.url) });
      },
    }),
    defineRoute({
      api: 'deadlinks',
      method: 'get',
      path: '/api/deadlinks/badge',
      summary: 'SVG badge: "links | 98% healthy"',
      description:
        'A shields-style badge for READMEs, from the same cache as the status endpoint: `unknown` (grey) when the site cannot be checked (unreachable, refused, timed out) or no fresh check is left this hour. While the service itself cannot answer (its store is down) the reply is a 503 with Retry-After, so no cache keeps a badge that says nothing of the site.',
      key: 'none',
      query: statusQuery,
      responses: {
        200: { description: 'SVG image', content: { 'image/svg+xml': 'text' } },
        400: errorResponse('Invalid url'),
        503: errorResponse('The service\'s store is unavailable for a moment (Retry-After)'),
      },
      async handler({ query, owner, req, res }) {
        const status = await statusOf(query.url, req.ip ?? 'unknown', owner).catch((err: unknown) => {
          if (siteStatusUnknown(err)) return null;
          throw err;
        });
        res.set('Cache-Control', 'public, max-age=300').type('image/svg+xml').send(renderBadge(status ? status.health_score : null));
      },
    }),
    defineRoute({
      api: 'deadlinks',
      method: 'get',
      path: '/widget.js',
      ignoresQuery: true,
      summary: 'Embeddable link-status widget',
      // No literal script tag here: doc linters (rightly) flag one in Markdown.
      description: 'Embed it with a script element whose attributes are `async`, `src="{base}/widget.js"`, `data-url="https://site"` and optionally `data-theme="light|dark"`: it renders the site\'s health score and broken count (from /api/deadlinks/status) in its own shadow root, untouched by the page\'s styles. Dark is the default.',
      key: 'none',
      responses: { 200: { description: 'JavaScript', content: { 'text/javascript': 'text' } } },
      handler({ res }) {
        res.set('Cache-Control', 'public, max-age=3600').type('text/javascript').send(widgetScript);
      },
    }),
  ];
}

/** A status that cannot be had for the site's sake (it cannot be checked, or no fresh check is left): the badge says unknown. */
const siteStatusUnknown = (err: unknown) =>
  err instanceof TargetFailedError || err instanceof TargetTimeoutError || err instanceof TargetRefusedError || err instanceof OverLimitError;

const wantsStream = (req: Request) => (req.get('accept') ?? '').includes('text/event-stream');

/** Server-sent events: throttled `progress`, then `report` (and `output` for non-JSON formats). */
async function stream(
  req: Request,
  res: Response,
  q: Query,
  run: (q: Query, onProgress: (p: CrawlProgress) => void, signal: AbortSignal) => Promise<DeadLinkReport>,
  docs: string,
) {
  const sse = openEventStream(res);
  let last = 0;
  let latest: CrawlProgress | null = null;
  try {
    const report = await run(
      q,
      (p) => {
        latest = p;
        if (Date.now() - last < 100) return;
        last = Date.now();
        sse.event('progress', p);
      },
      sse.gone,
    );
    if (latest) sse.event('progress', latest);
    sse.event('report', report);
    const out = formatReport(q.format, report, { informationUri: docs });
    if (out !== null) sse.event('output', { format: q.format, content: out });
  } catch (err) {
    sse.fail(err);
  } finally {
    sse.end();
  }
}
