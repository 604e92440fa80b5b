import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FixtureHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A loopback site whose routes are plain handlers; unknown paths answer 404. */
export async function startFixtureSite(routes: Record<string, FixtureHandler>, host = '127.0.0.1') {
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const route = routes[path];
    if (route) route(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, host, () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://${host}:${port}`,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/** An HTML handler with the given headers. */
export const html = (body: string, headers: Record<string, string> = {}, status = 200): FixtureHandler => (_req, res) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
};
