import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface FixtureServer {
  /** `http://host:port`, no trailing slash. */
  url: string;
  port: number;
  /** Stops listening and ends every open connection (kept-alive and upgraded ones too). */
  close(): Promise<void>;
}

/**
 * The one loopback HTTP server tests serve fixtures from: `handle` answers every request;
 * `port` 0 picks a free one (a second address may reuse the first's port).
 * Route tables, hit logs and canned answers live in the helpers built on it
 * (test/links/fixture-site.ts, test/render/fixture-site.ts, test/analysis/support/fixture-site.ts).
 */
export async function startFixtureServer(handle: Handler, host = '127.0.0.1', port = 0): Promise<FixtureServer> {
  const sockets = new Set<Socket>();
  const server = http.createServer(handle);
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(port, host, () => r()));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    port: bound,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
