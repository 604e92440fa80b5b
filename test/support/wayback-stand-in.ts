import { startFixtureServer, type FixtureServer } from './fixture-server.js';

export interface Snapshot {
  url: string;
  timestamp: string;
}

export interface WaybackStandIn extends FixtureServer {
  /** Every request, as `path url-asked-for`. */
  calls: string[];
  /** The URLs the availability API was asked for. */
  asked: string[];
}

/**
 * A loopback stand-in of the Wayback Machine's availability API (`GET /wayback/available?url=`),
 * in its documented shape: the closest snapshot `snapshotOf` names, or none. `fail` answers 500,
 * `hang` never answers (the service's own timeout must end the wait). Every call is recorded.
 */
export async function startWaybackStandIn(snapshotOf: (url: string) => Snapshot | undefined, mode: 'answer' | 'fail' | 'hang' = 'answer'): Promise<WaybackStandIn> {
  const calls: string[] = [];
  const asked: string[] = [];
  const server = await startFixtureServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const target = u.searchParams.get('url') ?? '';
    calls.push(`${u.pathname} ${target}`);
    if (u.pathname !== '/wayback/available') return void res.writeHead(404).end();
    asked.push(target);
    if (mode === 'hang') return;
    if (mode === 'fail') return void res.writeHead(500).end('oops');
    const snap = snapshotOf(target);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ url: target, archived_snapshots: snap ? { closest: { status: '200', available: true, url: snap.url, timestamp: snap.timestamp } } : {} }));
  });
  return Object.assign(server, { calls, asked });
}
