import type { SiteStatus } from '../links/site-status.js';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Only http(s) URLs become links; anything else a report holds is shown as text. */
const linkTo = (url: string) => (/^https?:\/\//i.test(url) ? `<a href="${escape(url)}" rel="nofollow noopener">${escape(url)}</a>` : escape(url));

export interface StatusPageLinks {
  /** The site's badge (SVG). */
  badge: string;
  /** The same status as JSON. */
  json: string;
  /** The service's docs page. */
  docs: string;
}

/**
 * The widget's "details": the cached link status of a site as a page a person reads, with the
 * broken links found, when and how the check ran, and how to run a complete one.
 */
export function siteStatusPage(s: SiteStatus & { cached: boolean }, links: StatusPageLinks): string {
  const verdict = s.broken_count === 0 ? 'no broken links' : `${s.broken_count} broken link${s.broken_count === 1 ? '' : 's'}`;
  const rows = s.broken_links
    .map((l) => `<tr><td>${linkTo(l.url)}</td><td>${l.status ?? escape(l.kind)}</td></tr>`)
    .join('');
  const shown = s.broken_links.length < s.broken_count ? `<p>The first ${s.broken_links.length} of ${s.broken_count} are listed.</p>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Link status of ${escape(s.target)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>
body{margin:0 auto;max-width:48rem;padding:2rem 1rem;font:16px/1.55 system-ui,sans-serif;color:#1f2328}
.score{font-size:2.5rem;font-weight:700;margin:.2rem 0}table{border-collapse:collapse;width:100%}
td,th{border:1px solid #d0d7de;padding:.3rem .6rem;text-align:left;word-break:break-all}
code,pre{background:#f6f8fa;border-radius:6px}pre{padding:.8rem;overflow:auto}small{color:#59636e}
</style></head>
<body>
<h1>Link status of ${linkTo(s.target)}</h1>
<p class="score">${s.health_score}% healthy</p>
<p>${verdict} among ${s.total_links_checked} links checked on ${s.pages_crawled} page${s.pages_crawled === 1 ? '' : 's'}
(${s.mode === 'quick' ? 'a quick check of this page' : `a ${escape(s.mode)} check`}, ${escape(new Date(s.checked_at).toUTCString())}).</p>
${rows ? `<h2>Broken links</h2><table><tr><th>Link</th><th>Status</th></tr>${rows}</table>${shown}` : ''}
<h2>Check every page</h2>
<p>This status comes from a cached check. A full crawl of the site, with every broken link and where it was found:</p>
<pre>curl "${escape(links.docs.replace(/\/$/, ''))}/api/deadlinks?url=${escape(encodeURIComponent(s.target))}"</pre>
<p><img src="${escape(links.badge)}" alt="links: ${s.health_score}% healthy"> <small>Badge for a README: <code>![links](${escape(links.badge)})</code></small></p>
<p><small>Also as <a href="${escape(links.json)}">JSON</a> · <a href="${escape(links.docs)}">API documentation</a></small></p>
</body></html>
`;
}
