import type { LinkView, ReportView } from '../../../server/report-markdown/dead-links.js';

/**
 * A documents-mode report of `n` broken links (link i found in 1 + i % 4 places) and
 * `w` missing-fragment warnings, the way the API answers for a repository's files.
 */
export function syntheticReport(n: number, w = 0): ReportView {
  const item = (url: string, kind: string, status: number | null, places: number): LinkView => ({
    url,
    status,
    kind,
    is_image: false,
    found_on: [],
    redirect_chain: [],
    final_url: url,
    locations: Array.from({ length: places }, (_, p) => ({ file: `docs/section-${p}/page-${url.length % 7}.md`, line: 10 + p, column: 3 })),
  });
  const broken = Array.from({ length: n }, (_, i) => item(`https://example.com/guide/${i}/${'deep/'.repeat(i % 9)}page.html`, 'http_404', 404, 1 + (i % 4)));
  const warnings = Array.from({ length: w }, (_, i) => item(`docs/other-${i}.md#missing-heading`, 'missing_fragment', null, 1));
  return {
    target: 'https://github.com/acme/docs',
    mode: 'documents',
    pages_crawled: 120,
    total_links_checked: n * 3 + w + 10,
    broken_count: n,
    broken_links: broken,
    redirects: [],
    bot_blocked: [],
    warnings,
    summary: { health_score: 66.7, redirects_found: 0, bot_blocked: 0, warnings: w },
    checked_at: '2026-11-30T12:00:00.000Z',
  };
}
