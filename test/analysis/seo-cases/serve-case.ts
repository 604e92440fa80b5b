import { startFixtureSite, type FixtureHandler } from '../support/fixture-site.js';
import type { SeoCase } from './case.js';

/** Serves one case on its own loopback origin: the page, its robots.txt and any extra routes. */
export async function serveCase(c: SeoCase) {
  let origin = '';
  const fill = (s: string) => s.replaceAll('{origin}', origin);
  const path = (c.path ?? '/page').split('?')[0];
  const routes: Record<string, FixtureHandler> = {
    ...c.routes,
    [path]: (_req, res) => {
      const headers = Object.fromEntries(Object.entries(c.headers ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.map(fill) : fill(v)]));
      res.writeHead(c.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(fill(c.html ?? ''));
    },
  };
  const robots = c.robots;
  if (robots === 'dropped') routes['/robots.txt'] = (req) => req.socket.destroy();
  else if (typeof robots === 'string') routes['/robots.txt'] = (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(fill(robots));
  else if (robots) {
    routes['/robots.txt'] = (_req, res) =>
      robots.status >= 300 && robots.status < 400
        ? res.writeHead(robots.status, { location: robots.body ?? '/' }).end()
        : res.writeHead(robots.status, { 'content-type': 'text/plain' }).end(fill(robots.body ?? ''));
  }
  const site = await startFixtureSite(routes);
  origin = site.url;
  return { site, url: `${site.url}${c.path ?? '/page'}`, fill };
}
