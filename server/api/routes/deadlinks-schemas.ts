import { z } from 'zod';
import { qBool, qInt, qNumber, qUrl } from '../route.js';
import { siteCheckDefaults } from '../../links/site-check.js';
import { compileUrlPattern } from '../../links/url-pattern.js';
import { targetHeadersQuery } from '../../net/target-headers.js';
import { CACHE_TTL_BOUNDS } from '../../links/result-cache.js';

/** Options shared by every mode and by the documents endpoint (query strings and JSON numbers alike). */
export const reportOptions = {
  format: z
    .enum(['json', 'csv', 'github', 'markdown', 'sarif'])
    .default('json')
    .describe('`json` (the report); `sarif` (SARIF 2.1.0 for GitHub code scanning, `application/sarif+json`: one rule per family of finding kinds, one result per broken place and per warning, repository files relative to `%SRCROOT%` with line and column, site pages as absolute URIs, `partialFingerprints` stable across runs and line shifts); `csv` (one row per broken link and place: url,status,kind,found_on,file,line,column, RFC 4180); `github` (workflow commands: `::error file=…,line=…,col=…::` per broken link and place, `::warning` per warning, a final `::notice` summary); `markdown` (a pull-request comment, the one the GitHub Actions post: headline with the gate, one row per broken link or warning with every place it was found, worst first, the first 20 open and the rest in `<details>`, redirects and bot-protected links folded; at most 65,536 characters, saying how many rows were cut).'),
  threshold: qNumber(0, 100)
    .optional()
    .describe('Gate: the minimum `summary.health_score` for `pass: true`, 0 to 100, decimals allowed (`99.5`); `pass` holds when `health_score >= threshold`. `pass` is present only when `threshold` or `max_broken` is given.')
    .meta({ example: 99.5 }),
  max_broken: qInt(0, 1_000_000).optional().describe('Gate: the maximum `broken_count` for `pass: true`. Combines with `threshold` (both must hold).'),
  check_only: z.enum(['internal', 'external']).optional().describe('Report only internal (same-site) or only external links. Internal pages are still crawled to find external links.'),
  fragments: z
    .enum(['warn', 'error', 'ignore'])
    .default(siteCheckDefaults.fragments)
    .describe('Same-site `#fragment` links are checked against the target page\'s ids and names (the rendered DOM in full mode). `warn` (default): listed in `warnings` as `missing_fragment`; `error`: counted as broken; `ignore`: not checked.'),
  cache_ttl: qInt(CACHE_TTL_BOUNDS.min, CACHE_TTL_BOUNDS.max)
    .optional()
    .describe(`Seconds a working link's (ok, redirect) result is reused by your later checks, ${CACHE_TTL_BOUNDS.min} to ${CACHE_TTL_BOUNDS.max} (a week); default the service's shared cache time (LINK_CACHE_OK_SECONDS, 600 s). Another value keeps your results under your key (or address, without a key), never making other callers' results older. Failures are reused for at most a minute, 429 answers never. \`summary.cached_results\` counts the results reused.`)
    .meta({ example: 3600 }),
};

const EXCLUDE_DOC =
  'URL regular expressions of links not to check; matching links are counted in `summary.skipped_links`. RE2 syntax (as lychee\'s `--exclude`; `(?i)` for case-insensitive), matched anywhere in the URL in time linear in its length, so no pattern can stall a check; lookahead, lookbehind and backreferences are not in the syntax. Tested against the absolute URL (documents mode: against the repository path of relative links).';
export const SUGGEST_FIXES_DOC =
  '`true` gives items a `suggestion` ({url, reason, archived_at}) whose target is known, the link\'s `#fragment` kept: `permanent_redirect` for a link whose every hop is 301/308 and whose final URL works (in `redirects`); `https` for an `http://` link whose `https://` twin (same host, path and query) answers OK (one more request, cached like any result; a working one that does not redirect is listed in `upgrades`); `archived` for a broken web link with a Wayback Machine snapshot (the operator\'s `ARCHIVE_API_URL`, at most 100 lookups per check, 4 at a time; none when the archive is off or fails). `summary.suggestions` counts them. The suggestion phase takes at most 15 s after the check.';
const ACCEPT_DOC = 'Extra HTTP status codes counted as working (e.g. 403 and 429 for sites behind bot protection).';

/** One `exclude` pattern: compiled here so a bad one is a 400 naming it, not a failure later. */
export const excludePattern = z
  .string()
  .min(1)
  .max(1000)
  .superRefine((v, ctx) => {
    try {
      compileUrlPattern(v);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `must be a valid RE2 regular expression, got ${JSON.stringify(v)}: ${(err as Error).message}` });
    }
  });

/** `exclude` in a query: repeat the parameter for several patterns (patterns hold commas, so no comma list). */
export const excludeQuery = z
  .union([excludePattern, z.array(excludePattern).max(100)])
  .optional()
  .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]))
  .describe(`${EXCLUDE_DOC} Repeat the parameter for several patterns.`);

export const statusCode = z.coerce.number().int().min(100).max(999);

/** `accept` in a query: a comma list such as `403,429`. */
export const acceptQuery = z
  .string()
  .regex(/^\s*\d{3}\s*(,\s*\d{3}\s*)*$/, 'must be a comma list of HTTP status codes such as 403,429')
  .optional()
  .transform((v) => (v === undefined ? undefined : v.split(',').map((c) => Number(c.trim()))))
  .describe(`${ACCEPT_DOC} A comma list: \`403,429\`.`);

export const excludeBody = z.array(excludePattern).max(100).optional().describe(EXCLUDE_DOC);
export const acceptBody = z.array(statusCode).max(100).optional().describe(ACCEPT_DOC);

/** Query of GET /api/deadlinks: every parameter documented for /openapi/deadlinks. */
export const deadlinksQuery = z
  .object({
    url: qUrl()
      .optional()
      .describe('Page to check (http or https; a bare host gets https://). Required unless `github` is given. Full mode crawls same-site pages from here.'),
    github: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/, 'must be owner/repo')
      .refine((v) => !/\/\.{1,2}$/.test(v), 'must be owner/repo (a repository cannot be named . or ..)')
      .optional()
      .describe('GitHub mode: `owner/repo`. The README is fetched through the GitHub API, its links are checked with their line numbers; items carry `file` and `line`.'),
    ref: z
      .string()
      .trim()
      .regex(/^[\w][\w./-]{0,199}$/, 'must be a branch, tag or commit SHA')
      .optional()
      .describe('GitHub mode: the branch, tag or commit SHA whose README is checked (default: the default branch). A pull request\'s head SHA checks the README as the PR changes it.'),
    mode: z
      .enum(['full', 'quick'])
      .default(siteCheckDefaults.mode)
      .describe('`full` (default): crawl up to `max_pages` same-site pages rendered in Chromium, so script-inserted links count. `quick`: only the given page, no browser, in well under a second.'),
    max_pages: qInt(1, 50).default(siteCheckDefaults.maxPages).describe(`Pages crawled in full mode, 1 to 50 (default ${siteCheckDefaults.maxPages}).`),
    max_duration: qInt(10, 120)
      .default(siteCheckDefaults.maxDurationMs / 1000)
      .describe(`Time budget in seconds, 10 to 120 (default ${siteCheckDefaults.maxDurationMs / 1000}). When exceeded, the report holds what was found so far and \`timed_out: true\`.`),
    ...reportOptions,
    exclude: excludeQuery,
    accept: acceptQuery,
    target_headers: targetHeadersQuery.describe(
      'Request headers for a protected site (a preview behind Vercel\'s protection, a password), as URL-encoded JSON: `{"x-vercel-protection-bypass":"…"}`. Sent to `url`\'s own origin only (scheme, host and port): its pages, its links and the requests its rendered pages make there; never to external links, third-party subresources or a redirect off the origin. Results of such a check are not cached or shared, and the site\'s public status (widget, badge) is not updated. At most 10 headers, names HTTP tokens, values up to 4096 characters without line breaks; hop-by-hop headers, `Host` and `Content-Length` are refused. Never logged or echoed.',
    ),
    suggest_fixes: qBool(false).describe(SUGGEST_FIXES_DOC),
    render: qBool(siteCheckDefaults.render).describe('Full mode only: render pages in Chromium (default true). `false` crawls with plain HTTP (faster, misses script-inserted links).'),
    key: z.string().optional().describe('API key (alternatively the X-API-Key header or a bearer token).'),
  })
  .superRefine((q, ctx) => {
    if (!q.url && !q.github) ctx.addIssue({ code: 'custom', path: ['url'], message: 'url is required unless github is given' });
    if (q.github && q.target_headers) ctx.addIssue({ code: 'custom', path: ['target_headers'], message: 'target_headers applies to a site (url), not to GitHub mode; leave it out' });
  });

const hop = z.object({
  url: z.string().describe('URL requested at this hop'),
  status: z.number().int().describe('Redirect status (301, 302, 303, 307, 308)'),
  location: z.string().describe('Absolute URL the hop redirects to'),
  client: z.enum(['meta_refresh', 'script']).optional().describe('Present when the page itself navigated away in the browser (status is then the page\'s own, usually 200)'),
});

export const linkItem = z.object({
  url: z.string().describe('The link, normalised (fragment kept only for missing_fragment items). Documents mode: a relative link is shown as the repository path it resolves to (`docs/guide.md`, `img/`)'),
  status: z.number().int().nullable().describe('Final HTTP status; null when no response arrived (see kind)'),
  kind: z
    .string()
    .describe('Stable outcome code. Broken: http_<status> (http_404, http_410, http_500 …), dns, refused, reset, timeout, tls, network, blocked_target, redirect_loop, too_many_redirects, invalid_url, missing_file (documents and GitHub modes: no such file or directory in the repository), unreadable (a document that could not be read in time or nests too deeply; its links are unknown). Not broken: ok, redirect, bot_blocked (bot protection such as a Cloudflare challenge or status 999), rate_limited (429 after retries), missing_fragment (a warning unless fragments=error), unused_definition (documents mode with unused_definitions=warn: a reference definition that renders nothing). Not checked (in `not_checked`): offline (documents mode with offline=true: a link that needs the network), fragment_not_judged (a #fragment into a file whose anchors were not sent), outside_repository (a link above the repository root to one of its GitHub pages, without repository_url).'),
  type: z.enum(['internal', 'external']).describe('internal = same site as the target: host and port equal up to a leading www.'),
  resource: z.enum(['page', 'image', 'script', 'stylesheet', 'frame', 'media', 'other']).describe('What the link points at, from the tag it was found in'),
  is_image: z.boolean().describe('Found as an image (img, srcset, poster, icon, CSS url()); broken ones count in summary.broken_images'),
  found_on: z.array(z.string()).describe('Every page the link appears on (GitHub and documents modes: the files)'),
  redirect_chain: z.array(hop).describe('Each redirect hop with its status and location; empty when there was none. A page that navigates away in the browser (meta refresh, script) adds a last hop with `client`'),
  final_url: z.string().describe('Where the request ended after redirects'),
  error: z.string().optional().describe('Innermost error message for network failures, or why a fragment is missing'),
  file: z.string().optional().describe('GitHub and documents modes: the file of the first occurrence'),
  line: z.number().int().optional().describe('GitHub and documents modes: the line of the first occurrence (1-based)'),
  column: z.number().int().optional().describe('GitHub and documents modes: the column of the first occurrence (1-based, UTF-16 code units)'),
  lines: z.array(z.number().int()).optional().describe('GitHub mode: every line of `file` the link is on (kept for older clients; `locations` has every occurrence)'),
  locations: z
    .array(z.object({ file: z.string(), line: z.number().int(), column: z.number().int().optional() }))
    .optional()
    .describe('GitHub and documents modes: every occurrence of the link, sorted by file, line and column'),
  browser_verified: z.boolean().optional().describe('A bot-blocked link that loaded in a real browser (full mode)'),
  suggestion: z
    .object({
      url: z.string().describe('The replacement URL (the link\'s #fragment kept)'),
      reason: z.enum(['permanent_redirect', 'https', 'archived']).describe('`permanent_redirect`: every hop was 301/308 and the final URL works; `https`: the http link\'s https twin works; `archived`: the nearest Wayback Machine snapshot of a broken link'),
      archived_at: z.string().optional().describe('`archived`: ISO 8601 time of the snapshot'),
    })
    .optional()
    .describe('With `suggest_fixes=true`: a replacement whose target is known'),
});

export const deadlinkReport = z.object({
  target: z.string().describe('The checked URL (GitHub mode: the repository URL; documents mode: `repository_url` or `documents`)'),
  mode: z.enum(['full', 'quick', 'github', 'documents']),
  pages_crawled: z.number().int().describe('HTML pages fetched or rendered and parsed for links (documents mode: documents read, binary ones left out)'),
  total_links_checked: z.number().int().describe('Links checked: each distinct target once per run (a URL without its fragment, or a repository path), plus each distinct #fragment judged against its target\'s anchors'),
  checked_urls: z.array(z.string()).optional().describe('Documents mode with `list_checked: true`: every link counted in `total_links_checked`, sorted (a judged fragment as `path#fragment`)'),
  checked_internal_urls: z.array(z.string()).optional().describe('Documents mode with `list_checked: true`: those of `checked_urls` counted in `summary.internal_links`'),
  skipped_urls: z.array(z.string()).optional().describe('Documents mode with `list_checked: true`: the links counted in `summary.skipped_links`'),
  broken_count: z.number().int().describe('Broken links: distinct targets, each listed once in broken_links with every place (summary.broken_places counts the places)'),
  broken_links: z.array(linkItem).describe('Broken links, sorted by URL'),
  redirects: z.array(linkItem).describe('Links that work after redirects, with their chains'),
  bot_blocked: z.array(linkItem).describe('Links answered by bot protection; not counted as broken'),
  warnings: z.array(linkItem).describe('missing_fragment, rate_limited and unused_definition items; not counted as broken'),
  upgrades: z.array(linkItem).optional().describe('With `suggest_fixes=true`: working links listed nowhere else that have a better URL (an `http://` link whose `https://` twin works), each with its `suggestion`'),
  not_checked: z.array(linkItem).describe('Links found but not checked in this run (kinds offline, fragment_not_judged, outside_repository), with every place; not counted in `total_links_checked`'),
  summary: z.object({
    health_score: z.number().describe('100 × (1 − broken_count ÷ total_links_checked), one decimal; 100 when nothing was checked'),
    broken_places: z.number().int().describe('Places of the broken links: every file:line:column (or page) they are found at; what annotations count'),
    broken_images: z.number().int(),
    redirects_found: z.number().int().describe('Links that redirect and end fine'),
    bot_blocked: z.number().int(),
    warnings: z.number().int(),
    internal_links: z.number().int().describe('Links checked that are internal; with external_links it adds up to total_links_checked'),
    external_links: z.number().int().describe('Links checked that are external'),
    skipped_links: z.number().int().describe('Links not checked by rule, each once: mailto:, tel:, javascript:, data: and other non-HTTP links, links matching `exclude`, links outside `check_only`'),
    not_checked: z.number().int().describe('Links listed in `not_checked`'),
    cached_results: z.number().int().describe('Link results reused from the cache (the shared one, or your own with `cache_ttl`) instead of asked again'),
    rendered_pages: z.number().int().describe('Pages opened in Chromium (full mode; pages without scripts are read from their HTML and not counted)'),
    duration_ms: z.number().int(),
    suggestions: z.number().int().optional().describe('With `suggest_fixes=true`: items that carry a `suggestion`'),
    skipped_documents: z
      .number()
      .int()
      .optional()
      .describe('Documents mode: documents not read because their content is binary (a NUL byte, or bytes that are not UTF-8 in a file that is not HTML); `pages_crawled` counts the others'),
  }),
  timed_out: z.literal(true).optional().describe('Present when max_duration was exceeded: the report is partial'),
  pass: z.boolean().optional().describe('Present when threshold or max_broken is given: true when every given gate holds'),
  gate: z
    .object({ threshold: z.number().optional().describe('The minimum health score asked for (decimals allowed)'), max_broken: z.number().int().optional() })
    .optional()
    .describe('The gate `pass` was judged by, as given'),
  repository: z.string().optional().describe('GitHub mode: owner/repo (documents mode: from `repository_url`, lower case)'),
  file: z.string().optional().describe('GitHub mode: the README path'),
  checked_at: z.string().describe('ISO 8601 time of the check'),
});

export const siteStatus = z.object({
  target: z.string(),
  health_score: z.number(),
  broken_count: z.number().int(),
  total_links_checked: z.number().int(),
  pages_crawled: z.number().int(),
  mode: z.enum(['full', 'quick', 'github', 'documents']).describe('The check this status came from'),
  checked_at: z.string(),
  broken_links: z.array(z.object({ url: z.string(), kind: z.string(), status: z.number().int().nullable() })).describe('Up to 10'),
  cached: z.boolean().describe('true when served from the status cache'),
  badge_url: z.string(),
});

export const statusQuery = z.object({
  url: qUrl().describe('The site whose latest status is wanted'),
});

/** The status endpoint's own query: the badge shares `url`, the status is also a page a person reads. */
export const statusPageQuery = statusQuery.extend({
  format: z.enum(['json', 'html']).default('json').describe('`json` (default) for scripts and the widget; `html`, the page the widget\'s "details" link opens'),
});

