import { startFixtureServer, type Handler } from '../../support/fixture-server.js';

export type FixtureHandler = Handler;

/** A loopback site whose routes are plain handlers; unknown paths answer 404. */
export function startFixtureSite(routes: Record<string, FixtureHandler>, host = '127.0.0.1') {
  return startFixtureServer((req, res) => {
    const route = routes[(req.url ?? '/').split('?')[0]];
    if (route) route(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }, host);
}

/** An HTML handler with the given headers. */
export const html = (body: string, headers: Record<string, string> = {}, status = 200): FixtureHandler => (_req, res) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
};
