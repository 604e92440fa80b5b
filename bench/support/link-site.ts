/**
 * The dead-link bench's generated site, served in a child process on loopback:
 * PAGES pages of 11 page links and 6 images each, every 20th page with one broken link,
 * LATENCY_MS per response (a range gives each path its own delay in it, as a real site's
 * pages differ, the same on every request). Sends `{ port }` to the parent when listening.
 *
 * With ASSETS=1 it is a site for the render bench: every page also has a style sheet
 * (which loads a web font and a background image), and every SCRIPT_EVERY-th page a script
 * that, once the DOM is ready, inserts two links (one to a page, one broken) and sets the id
 * that another page's `#fragment` link points at. `scriptLinks(base)` lists what only a
 * browser finds.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const PAGES = Number(process.env.PAGES ?? 320);
const IMAGES = Number(process.env.IMAGES ?? 200);
/** `LATENCY_MS`: one figure, or a range `60-120` in which each path gets its own fixed delay. */
const [LATENCY_MIN, LATENCY_MAX = LATENCY_MIN] = (process.env.LATENCY_MS ?? '3').split('-').map(Number);
const ASSETS = process.env.ASSETS === '1';
const SCRIPT_EVERY = Number(process.env.SCRIPT_EVERY ?? 5);

const scripted = (i: number) => ASSETS && i % SCRIPT_EVERY === 0;

const page = (i: number) => {
  const links: string[] = [`<a href="/p/${(i + 1) % PAGES}">next</a>`];
  for (let k = 1; k <= 10; k++) links.push(`<a href="/p/${(i * 7 + k * 13) % PAGES}">p</a>`);
  for (let k = 0; k < 6; k++) links.push(`<img src="/img/${(i * 3 + k * 11) % IMAGES}.png">`);
  if (i % 20 === 0) links.push(`<a href="/missing/${i}">gone</a>`);
  let head = '';
  if (ASSETS) {
    head = '<link rel="stylesheet" href="/css/site.css">';
    // The page before a scripted one links to the id its script sets.
    if (scripted(i + 1) && i + 1 < PAGES) links.push(`<a href="/p/${i + 1}#made-by-script">section</a>`);
    if (scripted(i)) links.push(`<div id="slot"></div><script src="/js/insert.js"></script>`);
  }
  return `<!doctype html><html><head><title>p${i}</title>${head}</head><body>${links.join('\n')}</body></html>`;
};

/** Inserts links and an id once the DOM is parsed (what a client-rendered menu does). */
const insertScript = `document.addEventListener('DOMContentLoaded', () => {
  const i = Number(location.pathname.split('/').pop()) || 0;
  const slot = document.getElementById('slot');
  slot.id = 'made-by-script';
  slot.insertAdjacentHTML('beforeend', '<a href="/p/' + ((i + 3) % ${PAGES}) + '">more</a> <a href="/js-only/' + i + '">gone</a>');
});`;

const css = `@font-face { font-family: Body; src: url(/fonts/body.woff2) format("woff2"); }
body { font-family: Body, sans-serif; background: url(/img/bg.png); }`;

const send = (req: http.IncomingMessage, res: http.ServerResponse, type: string, body = '') => {
  res.writeHead(200, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)) });
  res.end(req.method === 'HEAD' ? undefined : body);
};

/** The path's delay: spread over the range by a hash of the path, the same on every request. */
const latencyOf = (path: string) => {
  let h = 2166136261;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 16777619);
  return LATENCY_MIN + ((h >>> 0) % (LATENCY_MAX - LATENCY_MIN + 1));
};

const server = http.createServer((req, res) => {
  setTimeout(() => {
    const path = (req.url ?? '/').split('?')[0];
    const m = /^\/p\/(\d+)$/.exec(path);
    if (path === '/' || (m && Number(m[1]) < PAGES)) send(req, res, 'text/html; charset=utf-8', page(m ? Number(m[1]) : 0));
    else if (/^\/img\/(\d+|bg)\.png$/.test(path)) send(req, res, 'image/png');
    else if (ASSETS && path === '/css/site.css') send(req, res, 'text/css', css);
    else if (ASSETS && path === '/fonts/body.woff2') send(req, res, 'font/woff2');
    else if (ASSETS && path === '/js/insert.js') send(req, res, 'text/javascript', insertScript);
    else if (path === '/hundred') send(req, res, 'text/html', Array.from({ length: 100 }, (_, k) => `<a href="/p/${k}">${k}</a>`).join(''));
    else {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end(req.method === 'HEAD' ? undefined : 'not found');
    }
  }, latencyOf((req.url ?? '/').split('?')[0]));
});
server.keepAliveTimeout = 10_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
