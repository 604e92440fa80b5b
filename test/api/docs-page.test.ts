import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';
import { internalRenderOwner } from '../../server/render/browser-pool.js';

/** WCAG 2 contrast ratio of two `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, b] = (css.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number).map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

describe('the docs page in Chromium', function () {
  this.timeout(60_000);
  let svc: TestService;
  before(async () => (svc = await startTestService()));
  after(async () => svc?.close());

  it('GET /, loads with no failed request, a favicon, and readable version pills', async () => {
    const seen = await svc.deps.browser.withPage({ owner: internalRenderOwner, policy: svc.deps.http.policy, timeoutMs: 30_000 }, async (page) => {
      const failed: string[] = [];
      page.on('response', (r) => {
        if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
      });
      await page.goto(`${svc.url}/`, { waitUntil: 'networkidle0' });
      await page.waitForSelector('.swagger-ui .info .title small', { timeout: 15_000 });
      const found = await page.evaluate(() => {
        const icon = document.querySelector('link[rel="icon"]') as HTMLLinkElement | null;
        // The colour behind the text: the first box from the text outwards that paints a background.
        // (No named functions in here: the test transpiler would add a helper the page lacks.)
        const pills = [];
        for (const small of document.querySelectorAll('.swagger-ui .info .title small')) {
          const text = small.querySelector('pre') ?? small;
          let background = 'rgb(255, 255, 255)';
          for (let e: Element | null = text; e; e = e.parentElement) {
            const bg = getComputedStyle(e).backgroundColor;
            if (bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') {
              background = bg;
              break;
            }
          }
          pills.push({ text: (small.textContent ?? '').trim(), background, color: getComputedStyle(text).color, fontPx: parseFloat(getComputedStyle(text).fontSize) });
        }
        return { icon: icon?.href ?? null, pills };
      });
      return { failed, ...found };
    });
    expect(seen.failed).to.deep.equal([]);
    expect(seen.icon).to.equal(`${svc.url}/favicon.svg`);
    expect(seen.pills.map((p) => p.text)).to.include.members(['2.5.0', 'OAS 3.1']);
    for (const p of seen.pills) {
      expect(contrast(p.color, p.background), `${p.text}: ${p.color} on ${p.background}`).to.be.at.least(4.5);
      expect(p.fontPx, p.text).to.be.at.least(12);
    }
  });

  it('GET /favicon.svg and /favicon.ico, answer the icon', async () => {
    for (const path of ['/favicon.svg', '/favicon.ico']) {
      const r = await svc.call(path);
      expect(r.status, path).to.equal(200);
      expect(r.headers.get('content-type'), path).to.match(/^image\/svg\+xml/);
      expect(r.text, path).to.match(/^<svg /);
    }
  });
});
