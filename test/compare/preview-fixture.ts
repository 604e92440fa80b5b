import { serve, status, type FixtureServer } from '../links/fixture-site.js';

/**
 * Two deployments of one small site. The preview plants one change of each kind: a new
 * broken link (/new-page), a lost meta description, a heavier page (60 kB of inline data),
 * a library at another version in a script src (jQuery 3.6.0 → 3.7.1) and a moved button.
 * Both share a link broken in production already (/gone), and both lack robots.txt and a
 * sitemap, so what they share can be checked not to count.
 */
export interface PreviewFixture {
  production: FixtureServer;
  preview: FixtureServer;
  /** A second copy of production, to compare with itself. */
  twin: FixtureServer;
  close(): Promise<void>;
}

interface Variant {
  description: boolean;
  jquery: string;
  buttonTop: number;
  newLink: boolean;
  payloadBytes: number;
}

const productionVariant: Variant = { description: true, jquery: '3.6.0', buttonTop: 40, newLink: false, payloadBytes: 0 };
const previewVariant: Variant = { description: false, jquery: '3.7.1', buttonTop: 160, newLink: true, payloadBytes: 60_000 };

function home(v: Variant): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Acme widgets: the home page</title>
${v.description ? '<meta name="description" content="Acme makes widgets for every workshop, shipped worldwide.">' : ''}
<meta name="viewport" content="width=device-width, initial-scale=1">
<script src="/js/jquery-${v.jquery}.js"></script>
<style>html,body{margin:0;background:#fff;font:16px sans-serif} .cta{position:absolute;left:40px;top:${v.buttonTop}px;width:160px;height:48px;background:#1a7f37;color:#fff;border:0}</style>
</head><body>
<h1 style="margin:0;padding:8px 40px;font-size:20px">Acme widgets</h1>
<button class="cta">Buy now</button>
<nav style="position:absolute;top:240px;left:40px"><a href="/about">About</a> <a href="/pricing">Pricing</a> <a href="/gone">Old offer</a>${v.newLink ? ' <a href="/new-page">New</a>' : ''}</nav>
${v.payloadBytes ? `<script>window.__catalogue = "${'x'.repeat(v.payloadBytes)}";</script>` : ''}
</body></html>`;
}

const page = (title: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="description" content="${title} of Acme widgets, makers of widgets."></head><body><h1>${title}</h1><a href="/">Home</a></body></html>`;

const jquery = (version: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/javascript' });
  res.end(`/*! jQuery v${version} | (c) OpenJS Foundation and other contributors | jquery.org/license */\nwindow.jQuery = { fn: { jquery: '${version}' } };\n`);
};

const site = (v: Variant) =>
  serve({
    '/': home(v),
    '/about': page('About'),
    '/pricing': page('Pricing'),
    '/gone': status(404),
    [`/js/jquery-${v.jquery}.js`]: jquery(v.jquery),
  });

export async function startPreviewFixture(): Promise<PreviewFixture> {
  const [production, preview, twin] = await Promise.all([site(productionVariant), site(previewVariant), site(productionVariant)]);
  return {
    production,
    preview,
    twin,
    async close() {
      await Promise.all([production.close(), preview.close(), twin.close()]);
    },
  };
}
