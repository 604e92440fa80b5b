import { startFixtureServer, type Handler as FixtureHandler } from '../support/fixture-server.js';
import sharp from 'sharp';

export interface FixtureSite {
  url: string;
  port: number;
  /** Paths requested, in order (with the Host header's name for third-party hosts). */
  hits: Array<{ host: string; path: string }>;
  close(): Promise<void>;
}

type Handler = FixtureHandler;
const html = (body: string, status = 200): Handler => (_req, res) =>
  void res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);

const page = (style: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;padding:0}${style}</style></head><body>${body}</body></html>`;

/** The pages the render tests capture; every page is plain and deterministic. */
function routes(port: number): Record<string, Handler> {
  return {
    '/': html(page('body{background:#ff0000}', '<h1>fixture</h1>')),
    '/tall': html(
      page(
        'body{background:#fff} .block{height:1000px} #bottom{display:block;width:100%;height:200px}',
        `<div class="block"></div><div class="block"></div><div class="block"></div>
         <img id="bottom" loading="lazy" src="/green.png">`,
      ),
    ),
    '/green.png': (_req, res) => {
      void sharp({ create: { width: 100, height: 20, channels: 3, background: '#00ff00' } })
        .png()
        .toBuffer()
        .then((b) => res.writeHead(200, { 'content-type': 'image/png' }).end(b));
    },
    '/dark': html(
      page('body{background:#ffffff} @media (prefers-color-scheme: dark){body{background:#111111}}', '<p>scheme</p>'),
    ),
    '/box': html(
      page(
        'body{background:#ffffff} #box{position:absolute;left:50px;top:60px;width:200px;height:100px;background:#0000ff}',
        '<div id="box"></div>',
      ),
    ),
    '/grid': html(
      page(
        'body{background:#fff} #a{position:absolute;left:0;top:0;width:100px;height:100px;background:#ff0000} #b{position:absolute;left:100px;top:0;width:100px;height:100px;background:#0000ff}',
        '<div id="a"></div><div id="b"></div>',
      ),
    ),
    '/noise': html(
      page(
        '',
        `<canvas id="c" width="600" height="400"></canvas><script>
          const c = document.getElementById('c').getContext('2d');
          let s = 1; const r = () => (s = (s * 16807) % 2147483647) / 2147483647;
          for (let i = 0; i < 3000; i++) { c.fillStyle = 'hsl(' + r() * 360 + ',80%,50%)'; c.fillRect(r() * 600, r() * 400, 6, 6); }
        </script>`,
      ),
    ),
    '/lang': (req, res) =>
      html(
        page(
          '',
          `<p id="header">${String(req.headers['accept-language'] ?? '').replace(/[<>&]/g, '')}</p>
           <p id="nav"></p><script>document.getElementById('nav').textContent = navigator.language;</script>`,
        ),
      )(req, res),
    '/auth': (req, res) => {
      const expected = `Basic ${Buffer.from('alice:s3cret').toString('base64')}`;
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="test"', 'content-type': 'text/html' }).end(page('body{background:#ff0000}', 'denied'));
        return;
      }
      html(page('body{background:#00ff00}', 'welcome'))(req, res);
    },
    '/late': html(
      page(
        'body{background:#fff}',
        `<script>setTimeout(() => { const d = document.createElement('div'); d.id = 'late';
           d.style.cssText = 'width:100px;height:100px;background:#00ff00'; document.body.append(d); }, 700);</script>`,
      ),
    ),
    '/missing': html(page('body{background:#ffff00}', 'not here'), 404),
    '/hang': () => undefined,
    '/download': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="data.bin"' });
      res.end(Buffer.alloc(4096, 7));
    },
    '/ads': html(
      page(
        `body{background:#ffffff}
         .adsbygoogle{display:block;position:absolute;left:0;top:0;width:300px;height:250px;background:#00ff00}
         #onetrust-consent-sdk #onetrust-banner-sdk{position:fixed;left:0;right:0;bottom:0;height:150px;background:#ff0000}`,
        `<ins class="adsbygoogle" data-ad-client="ca-pub-1" data-ad-slot="1234567890"></ins>
         <div id="onetrust-consent-sdk"><div id="onetrust-banner-sdk" role="dialog" aria-label="Cookie banner">
           <p id="onetrust-policy-text">We use cookies</p>
           <button id="onetrust-accept-btn-handler" onclick="this.closest('#onetrust-consent-sdk').remove()">Accept</button><button id="onetrust-reject-all-handler" onclick="this.closest('#onetrust-consent-sdk').remove()">Reject all</button>
         </div></div>
         <script src="http://pagead2.googlesyndication.com:${port}/pagead/js/adsbygoogle.js"></script>
         <script src="http://securepubads.g.doubleclick.net:${port}/tag/js/gpt.js"></script>
         <script src="http://ib.adnxs.com:${port}/ttj?id=1"></script>
         <script src="http://static.hotjar.com:${port}/c/hotjar-1.js"></script>`,
      ),
    ),
  };
}

/** Starts the fixture site on `host` (default 127.0.0.1). */
export async function startFixtureSite(host = '127.0.0.1', extra: Record<string, string> = {}): Promise<FixtureSite> {
  const hits: FixtureSite['hits'] = [];
  let table: Record<string, Handler> = {};
  const server = await startFixtureServer((req, res) => {
    const path = req.url ?? '/';
    hits.push({ host: String(req.headers.host ?? '').replace(/:\d+$/, ''), path });
    if (extra[path] !== undefined) return html(extra[path])(req, res);
    const handler = table[path.split('?')[0]];
    if (handler) return handler(req, res);
    // Third-party scripts in /ads: an empty script is enough to count the hit.
    if (/\.js|\/ttj/.test(path)) return void res.writeHead(200, { 'content-type': 'text/javascript' }).end('/* tag */');
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }, host);
  table = routes(server.port);
  return { ...server, hits };
}

/** Decoded image: size and a pixel reader (RGBA). */
export async function decode(buf: Buffer) {
  const { data, info } = await sharp(buf).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    pixel(x: number, y: number): [number, number, number, number] {
      const i = (y * info.width + x) * 4;
      return [data[i], data[i + 1], data[i + 2], data[i + 3]];
    },
  };
}

/** True when two colours are within `tolerance` per channel (JPEG/WebP are lossy). */
export const near = (a: number[], b: number[], tolerance = 16) => b.every((v, i) => Math.abs(a[i] - v) <= tolerance);
