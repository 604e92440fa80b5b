import type { Server, ServerResponse } from 'node:http';
import { timeBound } from './time-bounds.js';

export interface Drainable {
  /**
   * Stops accepting, answers in-flight requests with `Connection: close`, closes keep-alive
   * sockets as they go idle, and resolves once every connection is gone or, after
   * `deadlineMs`, cuts the rest. True when everything finished in time.
   */
  drain(deadlineMs: number): Promise<boolean>;
}

/** Tracks `server`'s requests so a shutdown can drain it; register before the app's handler. */
export function drainable(server: Server): Drainable {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  server.on('request', (_req, res: ServerResponse) => {
    if (draining) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });

  return {
    async drain(deadlineMs) {
      draining = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A response already under way when the drain began leaves its socket kept alive; close
      // such sockets as soon as they go idle rather than at the deadline.
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      server.closeIdleConnections();
      const inTime = (await timeBound(closed.then(() => true), deadlineMs)) ?? false;
      clearInterval(sweep);
      if (!inTime) server.closeAllConnections();
      await closed;
      return inTime;
    },
  };
}
