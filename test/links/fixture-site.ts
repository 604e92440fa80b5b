import { startFixtureServer, type FixtureServer as BaseServer, type Handler } from '../support/fixture-server.js';
import { freePort } from '../support/service.js';

export type { Handler };

export interface FixtureServer extends BaseServer {
  /** Requests seen, as `METHOD path`. */
  hits: string[];
}

/** A loopback HTTP server answering `routes` (exact path match, query ignored); 404 otherwise. */
export async function serve(routes: Record<string, Handler | string>, host = '127.0.0.1'): Promise<FixtureServer> {
  const hits: string[] = [];
  const server = await startFixtureServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.push(`${req.method} ${path}`);
    const route = routes[path];
    if (typeof route === 'string') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(req.method === 'HEAD' ? undefined : route);
    } else if (route) {
      route(req, res);
    } else {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end(req.method === 'HEAD' ? undefined : '<h1>not found</h1>');
    }
  }, host);
  return { ...server, hits };
}

export const status = (code: number, headers: Record<string, string> = {}): Handler => (req, res) => {
  res.writeHead(code, { 'content-type': 'text/html', ...headers });
  res.end(req.method === 'HEAD' ? undefined : `<p>${code}</p>`);
};

export const redirect = (to: string, code = 302): Handler => (_req, res) => {
  res.writeHead(code, { location: to });
  res.end();
};

export const html = (body: string): string => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;


/**
 * The scenario site: every kind of link the checker must classify, on 127.0.0.1, with
 * an "external" server on 127.0.0.2. `expectedBroken` lists what must be broken for a
 * check of `/` (quick) and for a full crawl without rendering.
 */
export async function scenarioSite() {
  const ext = await serve(
    {
      '/ok': html('<p>external ok</p>'),
      '/cf': status(403, { 'cf-mitigated': 'challenge', server: 'cloudflare' }),
      '/li': status(999),
    },
    '127.0.0.2',
  );
  const dead = await freePort(); // nothing listens there
  let rateCalls = 0;
  const site = await serve({
    '/': html(`
      <a href="/about">about</a> <a href="docs/guide">guide</a>
      <a href="/gone">gone</a> <a href="/error">error</a> <a href="/missing">missing</a>
      <a href="${ext.url}/ok">ext ok</a> <a href="${ext.url}/nope">ext 404</a>
      <a href="${ext.url}/cf">cloudflare</a> <a href="${ext.url}/li">linkedin</a>
      <a href="http://127.0.0.1:${dead}/">refused</a> <a href="http://no-such-host.invalid/">dns</a>
      <a href="/hang">hang</a>
      <a href="/redirect-ok">redirect ok</a> <a href="/redirect-404">redirect 404</a> <a href="/loop-a">loop</a>
      <a href="/head-405">head 405</a> <a href="/rate">rate</a>
      <img src="/img/ok.png"> <img src="/img/missing.png" srcset="/img/ok.png 2x">
      <a href="/base/page">base</a>
      <a href="/about#team">team</a> <a href="/about#nope">nope</a> <a href="#top">top</a>
      <a href="mailto:a@b.c">mail</a> <a href="tel:+123">tel</a> <a href="javascript:void(0)">js</a>
      <a href="/about">about again</a>
      <script>document.addEventListener('DOMContentLoaded', () => document.body.insertAdjacentHTML('beforeend', '<a href="/js-broken">js</a>'));</script>
    `),
    '/about': html('<h2 id="team">Team</h2><a href="/">home</a>'),
    '/docs/guide': html(`<a href="intro">intro</a> <a href="../missing-rel">up</a> <a href="./guide">self</a> <a href="${ext.url}/deep-gone">ext</a>`),
    '/docs/intro': html('<p>intro</p>'),
    '/gone': status(410),
    '/error': status(500),
    '/hang': () => undefined,
    '/redirect-ok': redirect('/r2', 301),
    '/r2': redirect('/about', 302),
    '/redirect-404': redirect('/missing2'),
    '/loop-a': redirect('/loop-b'),
    '/loop-b': redirect('/loop-a'),
    '/head-405': (req, res) => {
      if (req.method === 'HEAD') return status(405)(req, res);
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<p>get works</p>');
    },
    '/rate': (req, res) => {
      rateCalls++;
      if (rateCalls === 1) return status(429, { 'retry-after': '1' })(req, res);
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(req.method === 'HEAD' ? undefined : '<p>ok</p>');
    },
    '/img/ok.png': (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end();
    },
    '/base/page': html('<base href="/other/"><a href="target">target via base</a>'),
    '/other/target': html('<p>target</p>'),
  });
  const s = site.url;
  const quickBroken: Record<string, string> = {
    [`${s}/gone`]: 'http_410',
    [`${s}/error`]: 'http_500',
    [`${s}/missing`]: 'http_404',
    [`${ext.url}/nope`]: 'http_404',
    [`http://127.0.0.1:${dead}/`]: 'refused',
    ['http://no-such-host.invalid/']: 'dns',
    [`${s}/hang`]: 'timeout',
    [`${s}/redirect-404`]: 'http_404',
    [`${s}/loop-a`]: 'redirect_loop',
    [`${s}/img/missing.png`]: 'http_404',
  };
  // Links on pages below the start page: only a crawl finds them.
  const crawlBroken = { ...quickBroken, [`${s}/missing-rel`]: 'http_404', [`${ext.url}/deep-gone`]: 'http_404' };
  const renderedBroken = { ...crawlBroken, [`${s}/js-broken`]: 'http_404' };
  return {
    site,
    ext,
    quickBroken,
    crawlBroken,
    renderedBroken,
    async close() {
      await Promise.all([site.close(), ext.close()]);
    },
  };
}
