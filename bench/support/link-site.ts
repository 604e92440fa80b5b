/**
 * The dead-link bench's generated site, served in a child process on loopback:
 * PAGES pages of 11 page links and 6 images each, every 20th page with one broken link,
 * LATENCY_MS per response. Sends `{ port }` to the parent when listening.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const PAGES = Number(process.env.PAGES ?? 320);
const IMAGES = Number(process.env.IMAGES ?? 200);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 3);

const page = (i: number) => {
  const links: string[] = [`<a href="/p/${(i + 1) % PAGES}">next</a>`];
  for (let k = 1; k <= 10; k++) links.push(`<a href="/p/${(i * 7 + k * 13) % PAGES}">p</a>`);
  for (let k = 0; k < 6; k++) links.push(`<img src="/img/${(i * 3 + k * 11) % IMAGES}.png">`);
  if (i % 20 === 0) links.push(`<a href="/missing/${i}">gone</a>`);
  return `<!doctype html><html><head><title>p${i}</title></head><body>${links.join('\n')}</body></html>`;
};

const server = http.createServer((req, res) => {
  setTimeout(() => {
    const path = (req.url ?? '/').split('?')[0];
    const m = /^\/p\/(\d+)$/.exec(path);
    if (path === '/' || (m && Number(m[1]) < PAGES)) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(req.method === 'HEAD' ? undefined : page(m ? Number(m[1]) : 0));
    } else if (/^\/img\/\d+\.png$/.test(path)) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '0' });
      res.end();
    } else if (path === '/hundred') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(Array.from({ length: 100 }, (_, k) => `<a href="/p/${k}">${k}</a>`).join(''));
    } else {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end(req.method === 'HEAD' ? undefined : 'not found');
    }
  }, LATENCY_MS);
});
server.keepAliveTimeout = 10_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
