import { request } from 'undici';
import { innermostMessage, netErrorKind } from '../net/safe-http.js';
import { extractMarkdown } from './extract-markdown.js';
import { LinkLedger, type LedgerEntry } from './link-ledger.js';
import { buildReport, type DeadLinkReport, type Gate } from './report.js';
import { newChecker, StartPageError, type FragmentPolicy, type LinkDeps } from './site-check.js';
import { isBroken, type CheckResult, type LinkScope } from './types.js';

export interface ReadmeCheckOptions {
  /** `owner/repo`. */
  repository: string;
  /** Branch, tag or commit whose README is checked; the default branch when absent. */
  ref?: string;
  maxDurationMs: number;
  checkOnly?: LinkScope;
  fragments: FragmentPolicy;
  gate: Gate;
}

export interface GithubApi {
  /** REST API base, e.g. https://api.github.com (a loopback stand-in in tests). */
  apiUrl: string;
  token?: string;
  /** Public web base used for the URLs shown in reports. @default https://github.com */
  webUrl?: string;
}

/** The repository or its README does not exist (or is not visible). */
export class RepositoryNotFoundError extends Error {}

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
      throw new RepositoryNotFoundError(`github repository ${opts.repository} or its README${opts.ref ? ` at ${opts.ref}` : ''} was not found`);
    }
    if (readmeRes.status !== 200) throw new StartPageError('github_api', `the GitHub API answered ${readmeRes.status} for the README of ${opts.repository}`);
    const readme = readmeRes.body as { path?: string; content?: string; encoding?: string };
    const branch = opts.ref ?? String((repoRes.body as { default_branch?: string } | null)?.default_branch ?? 'HEAD');
    const file = readme.path ?? 'README.md';
    const text = Buffer.from(readme.content ?? '', readme.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8');

    const blobBase = `${web}/${opts.repository}/blob/${encodeURI(branch)}/`;
    const fileUrl = new URL(file, blobBase).href;
    const md = extractMarkdown(text);
    const checker = newChecker(deps, abort.signal, deadline);
    const ledger = new LinkLedger(new URL(web).host, checker, { checkOnly: opts.checkOnly, isBroken: (r) => isBroken(r.kind) });
    const repoPaths = new Map<LedgerEntry, string>();
    const missing = new Map<string, string[]>();

    for (const link of md.links) {
      const source = { page: file, file, line: link.line };
      if (link.raw.startsWith('#')) {
        const fragment = decodeURIComponent(link.raw.slice(1));
        if (opts.fragments !== 'ignore' && fragment && !md.anchors.has(fragment.toLowerCase()) && !md.anchors.has(fragment)) {
          const e = ledger.add({ ...link, url: `${fileUrl}#${link.raw.slice(1)}` }, source);
          if (e) {
            ledger.claim(e.url);
            ledger.record(e, { url: e.url, status: 200, kind: 'ok', redirect_chain: [], final_url: e.url });
            missing.set(e.url, [...(missing.get(e.url) ?? []), link.raw.slice(1)]);
          }
        }
        continue;
      }
      const relative = !/^[a-z][a-z0-9+.-]*:/i.test(link.raw) && !link.raw.startsWith('//');
      const absolute = relative ? new URL(link.raw, fileUrl).href : link.raw;
      const e = ledger.add({ ...link, url: absolute }, source);
      if (!e) continue;
      if (relative && !link.raw.startsWith('/')) {
        const path = decodeURIComponent(new URL(absolute).pathname.slice(new URL(blobBase).pathname.length));
        repoPaths.set(e, path);
        ledger.claim(e.url);
      } else {
        ledger.schedule(e);
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
    await ledger.settle();
    const entries = [...ledger.entries.values()];
    return buildReport({
      target: `${web}/${opts.repository}`,
      mode: 'github',
      entries,
      pagesCrawled: 1,
      renderedPages: 0,
      skipped: ledger.skipped,
      timedOut: abort.signal.aborted || entries.some((e) => !e.result),
      startedAt,
      missingFragments: missing,
      fragmentsAreErrors: opts.fragments === 'error',
      gate: opts.gate,
      repository: opts.repository,
      file,
    });
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
    if (path.endsWith('/readme') || !path.includes('/contents/')) throw new StartPageError(kind, `the GitHub API could not be reached: ${innermostMessage(err)}`);
    return { status: 0, body: null, kind, error: innermostMessage(err) };
  }
}
