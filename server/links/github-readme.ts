import { request } from 'undici';
import { NotFoundError, TargetFailedError, targetErrorOf } from '../errors/index.js';
import { innermostMessage, netErrorKind } from '../net/safe-http.js';
import { readDocuments, recordUnreadable } from './extract-document.js';
import { alwaysValidFragment, anchorMatcher } from './fragment-match.js';
import { isRelativeLink, resolveInRepository } from './repository-links.js';
import { LinkLedger, type LedgerEntry } from './link-ledger.js';
import { settleAndReport, type DeadLinkReport, type FragmentVerdicts, type Gate } from './report.js';
import { newChecker, type FragmentPolicy, type LinkDeps } from './site-check.js';
import { withSuggestions } from './fix-suggestions.js';
import type { CheckResult, LinkScope } from './types.js';
import type { UrlPattern } from './url-pattern.js';

export interface ReadmeCheckOptions {
  /** `owner/repo`. */
  repository: string;
  /** Branch, tag or commit whose README is checked; the default branch when absent. */
  ref?: string;
  maxDurationMs: number;
  checkOnly?: LinkScope;
  exclude?: UrlPattern[];
  accept?: ReadonlySet<number>;
  fragments: FragmentPolicy;
  gate: Gate;
  /** Add `suggestion`s to the report's items (`fix-suggestions.ts`). */
  suggestFixes?: boolean;
}

export interface GithubApi {
  /** REST API base, e.g. https://api.github.com (a loopback stand-in in tests). */
  apiUrl: string;
  token?: string;
  /** Public web base used for the URLs shown in reports. @default https://github.com */
  webUrl?: string;
}

/**
 * GitHub mode: the README through the GitHub API, its links with line numbers; links
 * into the repository are checked through the contents API (no scraping of github.com),
 * every other link with HEAD→GET.
 */
export async function checkReadme(opts: ReadmeCheckOptions, deps: LinkDeps, gh: GithubApi): Promise<DeadLinkReport> {
  const startedAt = Date.now();
  const deadline = startedAt + opts.maxDurationMs;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), opts.maxDurationMs);
  const api = (path: string) => apiGet(gh, deps, path, abort.signal);
  const web = (gh.webUrl ?? 'https://github.com').replace(/\/+$/, '');
  try {
    const refQuery = opts.ref ? `?ref=${encodeURIComponent(opts.ref)}` : '';
    const [repoRes, readmeRes] = await Promise.all([api(`/repos/${opts.repository}`), api(`/repos/${opts.repository}/readme${refQuery}`)]);
    if (repoRes.status === 404 || readmeRes.status === 404) {
      throw new NotFoundError(`github repository ${opts.repository} or its README${opts.ref ? ` at ${opts.ref}` : ''} was not found`);
    }
    if (readmeRes.status !== 200) throw new TargetFailedError(`the GitHub API answered ${readmeRes.status} for the README of ${opts.repository}`, { kind: 'github_api' });
    const readme = readmeRes.body as { path?: string; content?: string; encoding?: string };
    const branch = opts.ref ?? String((repoRes.body as { default_branch?: string } | null)?.default_branch ?? 'HEAD');
    const file = readme.path ?? 'README.md';
    const text = Buffer.from(readme.content ?? '', readme.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8');

    const blobBase = `${web}/${opts.repository}/blob/${branch.split('/').map(encodeURIComponent).join('/')}/`;
    const fileUrl = blobBase + file.split('/').map(encodeURIComponent).join('/');
    const [md] = await readDocuments([{ path: file, content: text }], deps);
    const checker = newChecker(deps, abort.signal, deadline);
    const ledger = new LinkLedger(checker, { startHost: new URL(web).host, checkOnly: opts.checkOnly, exclude: opts.exclude, accept: opts.accept });
    const repoPaths = new Map<LedgerEntry, string>();
    const fragments: FragmentVerdicts = new Map();
    const isReadme = anchorMatcher(md.anchors, { ignoreCase: true });
    if (md.error) recordUnreadable(ledger, file, md.error);

    for (const link of md.links) {
      const source = { page: file, file, line: link.line, column: link.column };
      if (!isRelativeLink(link.url)) {
        const e = ledger.add({ ...link, url: link.url.startsWith('//') ? `https:${link.url}` : link.url }, source);
        if (e && !e.result) ledger.schedule(e);
        continue;
      }
      // Relative and root-relative links are files of the repository, as GitHub resolves them on the README's page;
      // above its root, the repository's own pages (its home, issues, wiki), checked like any link.
      const target = resolveInRepository(link.url, file);
      if ('aboveRoot' in target) {
        const page = new URL(target.aboveRoot + (target.fragment ? `#${target.fragment}` : ''), `${web}/${opts.repository}/`).href;
        const e = ledger.add({ ...link, url: page }, source);
        if (e && !e.result) ledger.schedule(e);
        continue;
      }
      const { path } = target;
      const url = blobBase + path.split('/').map(encodeURIComponent).join('/');
      const e = ledger.addAs({ key: url, url, scope: 'internal', fragment: target.fragment }, link.resource, source);
      if (!e || e.result || ledger.isClaimed(e.url)) continue;
      ledger.claim(e.url);
      if (path === file) ledger.record(e, { url, status: 200, kind: 'ok', redirect_chain: [], final_url: url });
      else repoPaths.set(e, path);
    }
    const own = ledger.entries.get(fileUrl);
    if (own && opts.fragments !== 'ignore') {
      const judged = [...own.fragments.keys()].filter((f) => !alwaysValidFragment(f));
      fragments.set(own.url, new Map(judged.map((f) => [f, isReadme(f) ? 'found' : 'missing'])));
    }
    // Other files of the repository are checked through the contents API, their headings unknown: their fragments are not judged.
    if (opts.fragments !== 'ignore') {
      for (const entry of repoPaths.keys()) {
        const unjudged = [...entry.fragments.keys()].filter((f) => !alwaysValidFragment(f));
        if (unjudged.length) fragments.set(entry.url, new Map(unjudged.map((f) => [f, 'not_judged'])));
      }
    }
    for (const [entry, path] of repoPaths) {
      if (entry.result) continue;
      ledger.track(
        api(`/repos/${opts.repository}/contents/${path.split('/').map(encodeURIComponent).join('/')}?ref=${encodeURIComponent(branch)}`).then((r) => {
          const result: CheckResult =
            r.status === 200
              ? { url: entry.url, status: 200, kind: 'ok', redirect_chain: [], final_url: entry.url }
              : { url: entry.url, status: r.status || null, kind: r.status ? `http_${r.status}` : r.kind, redirect_chain: [], final_url: entry.url, error: r.error };
          ledger.record(entry, result);
        }),
      );
    }
    const report = await settleAndReport(ledger, () => abort.signal.aborted, {
      target: `${web}/${opts.repository}`,
      mode: 'github',
      pagesCrawled: 1,
      startedAt,
      fragments,
      fragmentsAreErrors: opts.fragments === 'error',
      gate: opts.gate,
      repository: opts.repository,
      file,
      suggestFixes: opts.suggestFixes,
    });
    return opts.suggestFixes ? await withSuggestions(report, deps) : report;
  } finally {
    clearTimeout(timer);
  }
}

interface ApiReply {
  status: number;
  body: unknown;
  kind: CheckResult['kind'];
  error?: string;
}

async function apiGet(gh: GithubApi, deps: LinkDeps, path: string, signal: AbortSignal): Promise<ApiReply> {
  const url = gh.apiUrl.replace(/\/+$/, '') + path;
  try {
    deps.assertUrl(url);
    const res = await request(url, {
      dispatcher: deps.dispatcher,
      signal,
      headersTimeout: deps.timeoutMs,
      bodyTimeout: deps.timeoutMs,
      headers: {
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'user-agent': 'SiteLensLinkChecker/2.5',
        ...(gh.token ? { authorization: `Bearer ${gh.token}` } : {}),
      },
    });
    const text = await res.body.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = null; // error pages are not JSON; the status says enough
    }
    return { status: res.statusCode, body, kind: res.statusCode < 400 ? 'ok' : `http_${res.statusCode}` };
  } catch (err) {
    if (signal.aborted) return { status: 0, body: null, kind: 'timeout', error: 'the run timed out' };
    const kind = netErrorKind(err);
    if (path.endsWith('/readme') || !path.includes('/contents/')) throw targetErrorOf(kind, `the GitHub API could not be reached (${kind}): ${innermostMessage(err)}`, err);
    return { status: 0, body: null, kind, error: innermostMessage(err) };
  }
}
