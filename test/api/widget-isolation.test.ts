import { expect } from 'chai';
import pixelmatch from 'pixelmatch';
import sharp from 'sharp';
import { html, startFixtureSite } from '../analysis/support/fixture-site.js';
import { startTestService, type TestService } from '../support/service.js';
import { internalRenderOwner } from '../../server/render/browser-pool.js';

/**
 * A page whose global stylesheet restyles everything it can reach, with `!important`: the
 * element types a widget host might be (div, span, a, any element after a script), fonts and
 * the box model. Its background stays white, as the plain page's, so the widget's transparent
 * rounded corners show the same colour on both.
 */
const hostile = `<style>
* { font-family: "DejaVu Serif", serif !important; font-size: 22px !important; line-height: 3 !important;
    letter-spacing: 3px !important; box-sizing: content-box !important; text-transform: uppercase !important; }
div, span, a { display: block !important; margin: 14px !important; padding: 11px !important; border: 4px dashed #f0f !important;
    background: #ff0 !important; color: #f00 !important; width: 320px !important; font-weight: 900 !important; }
script + * { position: relative !important; left: 7px; transform: rotate(4deg) scale(1.3) !important; opacity: .4 !important;
    filter: blur(1px) !important; outline: 5px solid #00f !important; border-radius: 0 !important; zoom: 1.5 !important; }
[class], [data-theme] { padding: 30px !important; background: #0ff !important; }
html, body { background: #fff !important; color: #f00 !important; }
</style>`;

const embed = (svcUrl: string, siteUrl: string, theme: string) =>
  `<script async src="${svcUrl}/widget.js" data-url="${siteUrl}/" data-theme="${theme}"></script>`;

describe('widget.js isolation from the host page\'s CSS', function () {
  this.timeout(60_000);
  let svc: TestService;
  const closers: Array<() => Promise<unknown>> = [];
  let pages: string;

  before(async () => {
    const site = await startFixtureSite({ '/': html('<a href="/a">a</a><a href="/gone">x</a>'), '/a': html('a') });
    svc = await startTestService();
    closers.push(() => svc.close(), () => site.close());
    const routes: Record<string, ReturnType<typeof html>> = {};
    for (const theme of ['light', 'dark']) {
      routes[`/plain-${theme}`] = html(`<!doctype html><html><body><p>Plain page</p>${embed(svc.url, site.url, theme)}</body></html>`);
      routes[`/hostile-${theme}`] = html(
        `<!doctype html><html><head>${hostile}</head><body><div><span>Hostile page</span></div>${embed(svc.url, site.url, theme)}<div>after</div></body></html>`,
      );
    }
    const host = await startFixtureSite(routes);
    closers.push(() => host.close());
    pages = host.url;
  });
  after(async () => {
    for (const close of closers) await close();
  });

  /** The widget's box as rendered on `path`: decoded RGBA pixels and size. */
  const widgetBox = (path: string) =>
    svc.deps.browser.withPage({ owner: internalRenderOwner, policy: svc.deps.http.policy, timeoutMs: 30_000 }, async (page) => {
      await page.setViewport({ width: 900, height: 700, deviceScaleFactor: 1 });
      await page.goto(`${pages}${path}`, { waitUntil: 'load' });
      await page.waitForFunction(
        () => {
          const score = document.querySelector('sitelens-deadlinks-widget')?.shadowRoot?.querySelector('.score')?.textContent;
          return score !== undefined && score !== '…';
        },
        { timeout: 15_000 },
      );
      const box = await page.evaluate(() => {
        const r = (document.querySelector('sitelens-deadlinks-widget') as HTMLElement).getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      });
      const png = await page.screenshot({ clip: box, type: 'png' });
      return sharp(Buffer.from(png)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    });

  for (const theme of ['light', 'dark']) {
    it(`on a hostile page, the widget's box has the same size and pixels as on a plain page (${theme} theme)`, async () => {
      const plain = await widgetBox(`/plain-${theme}`);
      const hostileBox = await widgetBox(`/hostile-${theme}`);
      expect([hostileBox.info.width, hostileBox.info.height]).to.deep.equal([plain.info.width, plain.info.height]);
      const { width, height } = plain.info;
      const differing = pixelmatch(plain.data, hostileBox.data, undefined, width, height, { threshold: 0.1 });
      // The hostile page puts the box at a half-pixel offset, so a few pixels of curved edges
      // antialias differently; a restyled box differs in thousands.
      expect(differing, `${differing} of ${width * height} pixels differ`).to.be.at.most(Math.ceil(width * height * 0.001));
      // The box is the widget, not an empty host: it holds the card's colours.
      expect(width).to.be.greaterThan(120);
      expect(height).to.be.greaterThan(20);
    });
  }
});
