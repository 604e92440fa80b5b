import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import sharp from 'sharp';
import { HttpError } from '../../server/api/errors.js';
import { createBrowserPool, type BrowserPool } from '../../server/render/browser-pool.js';
import { createTargetPolicy } from '../../server/net/target-policy.js';
import { sharedBrowserPool } from '../support/browser.js';

interface Site {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

/** A loopback site on `host`; `routes` maps a path to HTML, `hang` never answers. */
async function serve(host: string, routes: Record<string, string>): Promise<Site> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/hang') return; // never answers
    const body = routes[req.url ?? ''];
    if (body === undefined) return void res.writeHead(404).end('nope');
    res.writeHead(200, { 'content-type': 'text/html' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    hits,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

describe('browser pool', function () {
  this.timeout(60_000);
  const open = createTargetPolicy('true');
  let pool: BrowserPool;
  let site: Site;

  before(async () => {
    pool = createBrowserPool({ chromePath: '/usr/bin/chromium', concurrency: 4, queue: 16, recycleAfter: 1_000, timeoutMs: 20_000 });
    site = await serve('127.0.0.1', { '/': '<title>ok</title><h1>hello</h1>' });
  });
  after(async () => {
    await pool.close();
    await site.close();
  });

  it('withPage, with 20 concurrent renders and a cap of 4, finishes all and never opens more than 4 pages', async () => {
    let maxOpen = 0;
    const titles = await Promise.all(
      Array.from({ length: 20 }, () =>
        pool.withPage({ policy: open }, async (page) => {
          maxOpen = Math.max(maxOpen, pool.stats().open);
          await page.goto(`${site.url}/`);
          return page.title();
        }),
      ),
    );
    expect(titles).to.deep.equal(Array(20).fill('ok'));
    expect(maxOpen).to.be.at.most(4);
    expect(pool.stats()).to.include({ open: 0, leased: 0, queued: 0 });
  });

  it('withPage, when 4 pages are busy and 16 wait, refuses the next with 429 and Retry-After', async () => {
    let releaseAll!: () => void;
    const gate = new Promise<void>((r) => (releaseAll = r));
    const busy = Array.from({ length: 20 }, () => pool.withPage({ policy: open }, () => gate));
    await new Promise((r) => setTimeout(r, 200));
    expect(pool.stats().queued).to.equal(16);
    const err = await pool.withPage({ policy: open }, async () => 'never').catch((e: unknown) => e);
    releaseAll();
    await Promise.all(busy);
    expect(err).to.be.instanceOf(HttpError);
    expect((err as HttpError).status).to.equal(429);
    expect((err as HttpError).headers['Retry-After']).to.match(/^\d+$/);
  });

  it('withPage, when the page never loads, fails with 504 and closes the page', async () => {
    const err = await pool
      .withPage({ policy: open, timeoutMs: 1_500 }, (page) => page.goto(`${site.url}/hang`, { timeout: 0 }))
      .catch((e: unknown) => e);
    expect((err as HttpError).status).to.equal(504);
    expect(pool.stats()).to.include({ open: 0, leased: 0 });
  });

  it('withPage, after the browser process is killed, relaunches and renders', async () => {
    await pool.withPage({ policy: open }, async (page) => page.goto(`${site.url}/`));
    const pid = pool.browserPid();
    expect(pid).to.be.a('number');
    process.kill(pid!, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    const title = await pool.withPage({ policy: open }, async (page) => {
      await page.goto(`${site.url}/`);
      return page.title();
    });
    expect(title).to.equal('ok');
    expect(pool.browserPid()).to.not.equal(pid);
  });

  it('withPage, render after render, shares no cookies or storage, also through the warm spare page', async () => {
    await pool.withPage({ policy: open }, async (page) => {
      await page.goto(`${site.url}/`);
      await page.evaluate(() => {
        document.cookie = 'session=secret; max-age=3600';
        localStorage.setItem('token', 'secret');
      });
    });
    await new Promise((r) => setTimeout(r, 500)); // idle: the pool prepares its spare
    expect(pool.stats().spare).to.equal(1);
    const seen = await pool.withPage({ policy: open }, async (page) => {
      await page.goto(`${site.url}/`);
      return page.evaluate(() => ({ cookie: document.cookie, token: localStorage.getItem('token') }));
    });
    expect(seen).to.deep.equal({ cookie: '', token: null });
  });

  it('withPage, after recycleAfter renders, moves to a fresh browser and closes the old one', async () => {
    const small = createBrowserPool({ chromePath: '/usr/bin/chromium', concurrency: 2, queue: 4, recycleAfter: 2, timeoutMs: 20_000 });
    try {
      const render = () => small.withPage({ policy: open }, async (page) => (await page.goto(`${site.url}/`))?.status());
      expect(await render()).to.equal(200);
      const first = small.browserPid();
      expect(await render()).to.equal(200);
      expect(await render()).to.equal(200);
      expect(small.stats().launches).to.equal(2);
      expect(small.browserPid()).to.be.a('number').and.not.equal(first);
      expect(() => process.kill(first!, 0), 'the retired browser exited').to.throw();
    } finally {
      await small.close();
    }
  });

  it('withPage, with only 127.0.0.2 allowed, keeps private addresses and file: out of the page', async () => {
    const privateSite = await serve('127.0.0.1', { '/secret': 'secret' });
    const tmpPng = path.join(os.tmpdir(), `pool-test-${process.pid}.png`);
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } }).png().toFile(tmpPng);
    const priv = privateSite.url;
    const publicSite = await serve('127.0.0.2', {
      '/': `<title>public</title>
        <img id="priv" src="${priv}/img.png"><iframe src="${priv}/frame"></iframe>
        <img id="file" src="file://${tmpPng}"><iframe src="file:///etc/passwd"></iframe>
        <img id="decimal" src="http://2130706433:${new URL(priv).port}/decimal.png">
        <script>fetch('${priv}/fetch').catch(() => {}); new WebSocket('${priv.replace('http', 'ws')}/ws');</script>`,
      '/redirect': '',
    });
    const policy = createTargetPolicy('127.0.0.2');
    try {
      // Control: with every address allowed, the same page does reach the private server.
      await sharedBrowserPool().withPage({ policy: open }, (page) => page.goto(`${publicSite.url}/`, { waitUntil: 'networkidle0' }));
      expect(privateSite.hits).to.include.members(['/img.png', '/frame', '/fetch']);
      privateSite.hits.length = 0;

      const result = await sharedBrowserPool().withPage({ policy }, async (page) => {
        await page.goto(`${publicSite.url}/`, { waitUntil: 'networkidle0' });
        const nav = await page.goto(`${priv}/secret`).then((r) => r?.status(), (e: Error) => e.message);
        return { nav };
      });
      expect(privateSite.hits).to.deep.equal([]);
      expect(String(result.nav)).to.not.equal('200');
      expect(publicSite.hits).to.include('/');
    } finally {
      fs.rmSync(tmpPng, { force: true });
      await privateSite.close();
      await publicSite.close();
    }
  });

  it('withPage, with a file: image in the page, does not load it', async () => {
    const tmpPng = path.join(os.tmpdir(), `pool-file-${process.pid}.png`);
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } }).png().toFile(tmpPng);
    try {
      const width = await sharedBrowserPool().withPage({ policy: open }, async (page) => {
        await page.setContent(`<img id="f" src="file://${tmpPng}">`, { waitUntil: 'load' });
        return page.$eval('#f', (img) => (img as HTMLImageElement).naturalWidth);
      });
      expect(width).to.equal(0);
    } finally {
      fs.rmSync(tmpPng, { force: true });
    }
  });
});
