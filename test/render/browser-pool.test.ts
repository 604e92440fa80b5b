import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { DomainError, TargetRefusedError } from '../../server/errors/index.js';
import { createBrowserPool, internalRenderOwner, type BrowserPool } from '../../server/render/browser-pool.js';
import { createTargetPolicy } from '../../server/net/target-policy.js';
import { sharedBrowserPool } from '../support/browser.js';
import { startFixtureServer } from '../support/fixture-server.js';
import { until } from '../support/wait.js';

interface Site {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

/** A loopback site on `host`; `routes` maps a path to HTML, `hang` never answers. */
async function serve(host: string, routes: Record<string, string>): Promise<Site> {
  const hits: string[] = [];
  const server = await startFixtureServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/hang') return; // never answers
    const body = routes[req.url ?? ''];
    if (body === undefined) return void res.writeHead(404).end('nope');
    res.writeHead(200, { 'content-type': 'text/html' }).end(body);
  }, host);
  return { ...server, hits };
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
        pool.withPage({ owner: internalRenderOwner, policy: open }, async (page) => {
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
    const busy = Array.from({ length: 20 }, () => pool.withPage({ owner: internalRenderOwner, policy: open }, () => gate));
    await until('16 renders waiting', () => (pool.stats().queued === 16 ? true : undefined));
    const err = await pool.withPage({ owner: internalRenderOwner, policy: open }, async () => 'never').catch((e: unknown) => e);
    releaseAll();
    await Promise.all(busy);
    expect(err).to.be.instanceOf(DomainError);
    expect((err as DomainError).status).to.equal(429);
    expect((err as DomainError).headers['Retry-After']).to.match(/^\d+$/);
  });

  it('as(owner).withPage, with one owner holding its share of slots, renders another owner\'s page at once', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // The owner's pages, as domain code gets them: every lease counts against its share.
    const busy = pool.as({ id: 'key:busy', cap: 2 });
    const held = Array.from({ length: 4 }, () => busy.withPage({ policy: open }, () => gate));
    await new Promise((r) => setImmediate(r));
    expect(pool.stats()).to.include({ queued: 2 });
    const title = await pool.as({ id: 'key:calm', cap: 2 }).withPage({ policy: open }, async (page) => {
      await page.goto(`${site.url}/`);
      return page.title();
    });
    expect(title).to.equal('ok');
    expect(pool.stats()).to.include({ queued: 2 });
    release();
    await Promise.all(held);
  });

  it('withPage, when an owner already fills half the queue, refuses its next render with 429 naming its share', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const owner = { id: 'ip:203.0.113.9', cap: 1 };
    const held = Array.from({ length: 9 }, () => pool.withPage({ policy: open, owner }, () => gate));
    await new Promise((r) => setImmediate(r));
    const err = await pool.withPage({ policy: open, owner }, async () => 'never').catch((e: unknown) => e);
    release();
    await Promise.all(held);
    expect(err).to.be.instanceOf(DomainError);
    expect((err as DomainError).status).to.equal(429);
    expect((err as DomainError).message).to.match(/its share of the renderer/);
  });

  it('withPage, when the page calls alert(), dismisses the dialog and renders', async () => {
    const text = await pool.withPage({ owner: internalRenderOwner, policy: open }, async (page) => {
      await page.setContent('<p id="p">before</p><script>alert("hi"); document.getElementById("p").textContent = "after";</script>');
      return page.$eval('#p', (p) => p.textContent);
    });
    expect(text).to.equal('after');
  });

  it('withPage, when the page never loads, fails with 504 and closes the page', async () => {
    const err = await pool
      .withPage({ owner: internalRenderOwner, policy: open, timeoutMs: 1_500 }, (page) => page.goto(`${site.url}/hang`, { timeout: 0 }))
      .catch((e: unknown) => e);
    expect((err as DomainError).status).to.equal(504);
    expect(pool.stats()).to.include({ open: 0, leased: 0 });
  });

  it('withPage, after the browser process is killed, relaunches and renders', async () => {
    await pool.withPage({ owner: internalRenderOwner, policy: open }, async (page) => page.goto(`${site.url}/`));
    const pid = pool.browserPid();
    expect(pid).to.be.a('number');
    process.kill(pid!, 'SIGKILL');
    await until('the pool to notice', () => (pool.browserPid() === undefined ? true : undefined));
    const title = await pool.withPage({ owner: internalRenderOwner, policy: open }, async (page) => {
      await page.goto(`${site.url}/`);
      return page.title();
    });
    expect(title).to.equal('ok');
    expect(pool.browserPid()).to.not.equal(pid);
  });

  it('withPage, render after render, shares no cookies or storage, also through the warm spare page', async () => {
    await pool.withPage({ owner: internalRenderOwner, policy: open }, async (page) => {
      await page.goto(`${site.url}/`);
      await page.evaluate(() => {
        document.cookie = 'session=secret; max-age=3600';
        localStorage.setItem('token', 'secret');
      });
    });
    await until('the pool to prepare its spare while idle', () => (pool.stats().spare === 1 ? true : undefined));
    const seen = await pool.withPage({ owner: internalRenderOwner, policy: open }, async (page) => {
      await page.goto(`${site.url}/`);
      return page.evaluate(() => ({ cookie: document.cookie, token: localStorage.getItem('token') }));
    });
    expect(seen).to.deep.equal({ cookie: '', token: null });
  });

  it('withPage, after recycleAfter renders, moves to a fresh browser and closes the old one', async () => {
    const small = createBrowserPool({ chromePath: '/usr/bin/chromium', concurrency: 2, queue: 4, recycleAfter: 2, timeoutMs: 20_000 });
    try {
      const render = () => small.withPage({ owner: internalRenderOwner, policy: open }, async (page) => (await page.goto(`${site.url}/`))?.status());
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
      await sharedBrowserPool().withPage({ owner: internalRenderOwner, policy: open }, (page) => page.goto(`${publicSite.url}/`, { waitUntil: 'networkidle0' }));
      expect(privateSite.hits).to.include.members(['/img.png', '/frame', '/fetch']);
      privateSite.hits.length = 0;

      await sharedBrowserPool().withPage({ owner: internalRenderOwner, policy }, (page) => page.goto(`${publicSite.url}/`, { waitUntil: 'networkidle0' }));
      expect(privateSite.hits).to.deep.equal([]);
      expect(publicSite.hits).to.include('/');
      // The page itself navigating to a private address fails the lease as fetch mode would.
      const nav = await sharedBrowserPool()
        .withPage({ owner: internalRenderOwner, policy }, async (page) => {
          await page.goto(`${publicSite.url}/`);
          return page.goto(`${priv}/secret`);
        })
        .catch((e: unknown) => e);
      expect(nav).to.be.instanceOf(TargetRefusedError);
      expect((nav as DomainError).message).to.match(/loopback address/);
      expect(privateSite.hits).to.deep.equal([]);
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
      const width = await sharedBrowserPool().withPage({ owner: internalRenderOwner, policy: open }, async (page) => {
        await page.setContent(`<img id="f" src="file://${tmpPng}">`, { waitUntil: 'load' });
        return page.$eval('#f', (img) => (img as HTMLImageElement).naturalWidth);
      });
      expect(width).to.equal(0);
    } finally {
      fs.rmSync(tmpPng, { force: true });
    }
  });
});
