/**
 * The repository-files bench's external host, in a child process on loopback: `/ext/N`
 * answers 404 when `externalBroken(N)`, else a small page, each path after its own fixed
 * delay in LATENCY_MS (`20-60`). It counts the requests per path and method: the parent
 * sends `reset` before a tool runs and `counts` after, and gets `{ counts }` back. Sends
 * `{ port }` when listening.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { externalBroken } from './markdown-repo.js';

const [MIN, MAX = MIN] = (process.env.LATENCY_MS ?? '20-60').split('-').map(Number);
const delayOf = (p: string) => {
  let h = 2166136261;
  for (let i = 0; i < p.length; i++) h = Math.imul(h ^ p.charCodeAt(i), 16777619);
  return MIN + ((h >>> 0) % (MAX - MIN + 1));
};

let counts: Record<string, number> = {};
process.on('message', (m) => {
  if (m === 'reset') counts = {};
  else process.send?.({ counts });
});

const server = http.createServer((req, res) => {
  const p = (req.url ?? '/').split('?')[0];
  counts[`${req.method} ${p}`] = (counts[`${req.method} ${p}`] ?? 0) + 1;
  setTimeout(() => {
    const m = /^\/ext\/(\d+)$/.exec(p);
    const ok = m !== null && !externalBroken(Number(m[1]));
    const body = ok ? '<!doctype html><title>ok</title><p>ok</p>' : 'not found';
    res.writeHead(ok ? 200 : 404, { 'content-type': 'text/html', 'content-length': String(Buffer.byteLength(body)) });
    res.end(req.method === 'HEAD' ? undefined : body);
  }, delayOf(p));
});
server.keepAliveTimeout = 10_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
