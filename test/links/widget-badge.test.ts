import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';
import { html, serve, status, type FixtureServer } from './fixture-site.js';
import { internalRenderOwner } from '../../server/render/browser-pool.js';

describe('dead-link widget, status endpoint and badge', () => {
  let svc: TestService;
  let site: FixtureServer;
  let host: FixtureServer;

  before(async () => {
    site = await serve({ '/': html('<a href="/a">a</a><a href="/b">b</a><a href="/c">c</a><a href="/gone">x</a>'), '/a': html('a'), '/b': html('b'), '/c': html('c'), '/gone': status(404) });
    svc = await startTestService();
    host = await serve({
      '/light': html(`<style>.card{display:none!important} span{color:red!important}</style><script async src="${svc.url}/widget.js" data-url="${site.url}/" data-theme="light"></script>`),
      '/dark': html(`<script async src="${svc.url}/widget.js" data-url="${site.url}/"></script>`),
    });
  });
  after(async () => {
    await svc?.close();
    await host?.close();
    await site?.close();
  });

  it('GET /api/deadlinks/status, on a miss, runs one quick check and then serves it from cache', async () => {
    const first = await svc.call(`/api/deadlinks/status?url=${encodeURIComponent(site.url + '/')}`);
    expect(first.status, first.text).to.equal(200);
    expect(first.body).to.include({ health_score: 75, broken_count: 1, total_links_checked: 4, cached: false });
    expect(first.headers.get('access-control-allow-origin')).to.equal('*');
    const before = site.hits.length;
    const second = await svc.call(`/api/deadlinks/status?url=${encodeURIComponent(site.url + '/')}`);
    expect(second.body.cached).to.equal(true);
    expect(site.hits.length).to.equal(before);
  });

  it('GET /api/deadlinks/badge returns a shields-style SVG with the health score', async () => {
    const r = await svc.call(`/api/deadlinks/badge?url=${encodeURIComponent(site.url + '/')}`);
    expect(r.headers.get('content-type')).to.match(/^image\/svg\+xml/);
    expect(r.text).to.match(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(r.text).to.include('<title>links: 75% healthy</title>');
    expect(r.text).to.include('#fe7d37');
  });

  it('GET /api/deadlinks/badge, when the site cannot be reached, still answers an SVG saying unknown', async () => {
    const r = await svc.call(`/api/deadlinks/badge?url=${encodeURIComponent('http://no-such-host.invalid/')}`);
    expect(r.status).to.equal(200);
    expect(r.text).to.include('links: unknown');
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`widget.js, embedded in a page with hostile CSS, renders the status in its shadow root (${theme} theme)`, async function () {
      this.timeout(30_000);
      const seen = await svc.deps.browser.withPage({ owner: internalRenderOwner, policy: svc.deps.http.policy, timeoutMs: 20_000 }, async (page) => {
        await page.goto(`${host.url}/${theme}`, { waitUntil: 'load' });
        await page.waitForFunction(
          () => document.querySelector('.sitelens-deadlinks-widget')?.shadowRoot?.querySelector('.score')?.textContent !== '…',
          { timeout: 10_000 },
        );
        return page.evaluate(() => {
          const root = document.querySelector('.sitelens-deadlinks-widget')?.shadowRoot;
          const card = root?.querySelector('.card') as HTMLElement;
          const style = getComputedStyle(card);
          return {
            score: root?.querySelector('.score')?.textContent,
            broken: root?.querySelector('.broken')?.textContent,
            details: (root?.querySelector('.details') as HTMLAnchorElement).href,
            display: style.display,
            background: style.backgroundColor,
            textColor: getComputedStyle(root?.querySelector('.broken') as HTMLElement).color,
          };
        });
      });
      expect(seen.score).to.equal('75%');
      expect(seen.broken).to.equal('1 broken of 4 links');
      expect(seen.details).to.equal(`${svc.url}/api/deadlinks/status?url=${encodeURIComponent(site.url + '/')}&format=html`);
      expect(seen.display).to.equal('inline-flex');
      expect(seen.textColor).not.to.equal('rgb(255, 0, 0)');
      expect(seen.background).to.equal(theme === 'light' ? 'rgb(255, 255, 255)' : 'rgb(13, 17, 23)');
    });
  }

  it('the widget\'s "details" link opens a page a person reads: the score, the broken links, how to run a full check', async function () {
    this.timeout(30_000);
    const details = `${svc.url}/api/deadlinks/status?url=${encodeURIComponent(site.url + '/')}&format=html`;
    const seen = await svc.deps.browser.withPage({ owner: internalRenderOwner, policy: svc.deps.http.policy, timeoutMs: 20_000 }, async (page) => {
      const res = await page.goto(details, { waitUntil: 'load' });
      return {
        type: res?.headers()['content-type'],
        title: await page.title(),
        heading: await page.$eval('h1', (h) => h.textContent),
        text: await page.evaluate(() => document.body.innerText),
        broken: await page.$$eval('td a', (as) => as.map((a) => (a as HTMLAnchorElement).href)),
      };
    });
    expect(seen.type).to.match(/^text\/html/);
    expect(seen.title).to.equal(`Link status of ${site.url}/`);
    expect(seen.heading).to.equal(`Link status of ${site.url}/`);
    expect(seen.text).to.include('75% healthy');
    expect(seen.text).to.include('1 broken link among 4 links checked on 1 page');
    expect(seen.broken).to.deep.equal([`${site.url}/gone`]);
    expect(seen.text).to.include(`/api/deadlinks?url=${encodeURIComponent(site.url + '/')}`);
  });
});
