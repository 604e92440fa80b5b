import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

/** A route's answer, told the scheme it was asked over and the site's base URL in that scheme. */
export type Route = (scheme: 'http' | 'https', res: http.ServerResponse, base: string) => void;

/** One port that answers plain HTTP and TLS alike (told apart by the first byte), so an http link and its https twin share host and port as on a real site. */
export async function dualSchemeSite(routes: Record<string, Route | { http: Route; https: Route }>, creds: { key: string; cert: string }) {
  const hits: string[] = [];
  let base = '';
  const handle = (scheme: 'http' | 'https') => (req: http.IncomingMessage, res: http.ServerResponse) => {
    const p = (req.url ?? '/').split('?')[0];
    hits.push(`${scheme} ${req.method} ${p}`);
    const route = routes[p];
    const fn = typeof route === 'function' ? route : route?.[scheme];
    if (fn) fn(scheme, res, `${scheme}://${base}`);
    else res.writeHead(404).end();
  };
  const plain = http.createServer(handle('http'));
  const secure = https.createServer(creds, handle('https'));
  const sockets = new Set<net.Socket>();
  const front = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.once('data', (first) => {
      socket.pause();
      socket.unshift(first);
      (first[0] === 0x16 ? secure : plain).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  });
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', () => r()));
  base = `127.0.0.1:${(front.address() as AddressInfo).port}`;
  return {
    http: `http://${base}`,
    https: `https://${base}`,
    hits,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => front.close(r));
    },
  };
}

/** A CA and a leaf for 127.0.0.1 signed by it: the service trusts the CA through TLS_EXTRA_CA_FILE. */
export async function loopbackCerts() {
  const ca = await generate([{ name: 'commonName', value: 'Suggestions Test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
    ca: { key: ca.private, cert: ca.cert },
  });
  return { ca: ca.cert, leaf: { key: leaf.private, cert: leaf.cert } };
}
