import type { Response } from 'express';
import { httpReply } from '../errors/index.js';

/** How often a comment line keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

export interface EventStream {
  /** One `event: name` with its JSON data. */
  event(name: string, data: unknown): void;
  /** Aborts when the client goes away. */
  readonly gone: AbortSignal;
  /** The failure as an `error` event: the vocabulary's body, its status and code, as every error answer carries. */
  fail(err: unknown, code?: string | null): void;
  /** Ends the stream (idempotent). */
  end(): void;
}

/** Answers `res` as server-sent events (no buffering by proxies, a heartbeat while quiet). */
export function openEventStream(res: Response): EventStream {
  res.status(200).set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
  res.flushHeaders();
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  const event = (name: string, data: unknown) => void res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  return {
    event,
    gone: gone.signal,
    fail(err, code) {
      const reply = httpReply(err);
      event('error', { ...reply.body, code: code ?? reply.code, status: reply.status });
    },
    end() {
      clearInterval(heartbeat);
      if (!res.writableEnded) res.end();
    },
  };
}
