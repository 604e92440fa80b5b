import http from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream/promises';
import { Writable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { TargetPolicy } from '../net/target-policy.js';
import { clientContext } from '../tls/trust-store.js';

export interface TimedRequestOptions {
  url: string;
  /** Whole exchange deadline, in ms. @default 15000 */
  timeoutMs?: number;
  /** Body bytes counted at most (transfer is cut there). @default 5242880 */
  maxBytes?: number;
  userAgent?: string;
  /** Keep the decoded body in the response (`body`). */
  keepBody?: boolean;
  /** Extra request headers (a protected target's, for this hop's origin only: the caller decides). */
  headers?: Readonly<Record<string, string>>;
}

export interface HopTimings {
  dns_ms: number;
  connect_ms: number;
  tls_ms: number;
  ttfb_ms: number;
  download_ms: number;
  total_ms: number;
}

export interface TimedResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  httpVersion: string;
  remoteAddress: string;
  timings: HopTimings;
  /** Body bytes on the wire (after content-encoding). */
  transferBytes: number;
  /** Body bytes after decoding gzip/br/deflate/zstd. */
  decodedBytes: number;
  truncated: boolean;
  /** The decoded body, when asked for with `keepBody`: its first maxBytes bytes. */
  body?: Buffer;
}

/** Body bytes read at most unless told otherwise (ANALYSIS_MAX_BYTES's default). */
export const DEFAULT_BODY_LIMIT = 5 * 1024 * 1024;

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * One GET on a fresh connection with phase timings (DNS, TCP, TLS, first byte, download).
 * Raw `http.request` is used because fetch hides the phases; the target policy checks
 * literals up front and resolved names through `lookup`.
 */
export function timedRequest(opts: TimedRequestOptions, deps: { policy: TargetPolicy; ca?: readonly string[] }): Promise<TimedResponse> {
  const url = deps.policy.assertUrl(opts.url);
  const { timeoutMs = 15_000, maxBytes = DEFAULT_BODY_LIMIT } = opts;
  const mod = url.protocol === 'https:' ? https : http;
  const t0 = performance.now();
  const marks = { lookup: 0, connect: 0, secure: 0, response: 0, end: 0 };
  return new Promise((resolve, reject) => {
    const req = mod.request(url, {
      method: 'GET',
      agent: false,
      lookup: deps.policy.lookup,
      // A page whose certificate a browser refuses is a failed target here too, as in every
      // other check (one verdict); its certificate is graded by the TLS check.
      rejectUnauthorized: true,
      ...(deps.ca ? { secureContext: clientContext(deps.ca) } : {}),
      headers: {
        'user-agent': opts.userAgent ?? 'Mozilla/5.0 (compatible; SiteLens-Perf/3.0)',
        accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
        'accept-encoding': 'br, gzip, deflate',
        ...opts.headers,
        connection: 'close',
      },
    });
    const timer = setTimeout(() => {
      req.destroy(Object.assign(new Error(`no complete response within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }));
    }, timeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(err);
    };
    req.once('error', fail);
    req.once('socket', (socket) => {
      socket.once('lookup', () => (marks.lookup = performance.now()));
      socket.once('connect', () => (marks.connect = performance.now()));
      socket.once('secureConnect', () => (marks.secure = performance.now()));
    });
    req.once('response', (res) => {
      marks.response = performance.now();
      let transferBytes = 0;
      let decodedBytes = 0;
      let truncated = false;
      const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
      const decoder = decoderFor(encoding);
      res.on('data', (chunk: Buffer) => {
        transferBytes += chunk.length;
        if (transferBytes >= maxBytes && !truncated) {
          truncated = true;
          res.destroy();
          finish();
        }
      });
      const kept: Buffer[] = [];
      let keptBytes = 0;
      const counter = new Writable({
        write(chunk: Buffer, _enc, cb) {
          decodedBytes += chunk.length;
          // The kept body is capped at maxBytes too: a small compressed body can decode to gigabytes.
          if (opts.keepBody && keptBytes < maxBytes) {
            const part = chunk.subarray(0, maxBytes - keptBytes);
            kept.push(part);
            keptBytes += part.length;
          }
          cb();
        },
      });
      const done = decoder ? pipeline(res, decoder, counter) : pipeline(res, counter);
      let finished = false;
      function finish() {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        marks.end = performance.now();
        const connectStart = marks.lookup || t0;
        const connected = marks.connect || connectStart;
        const secured = marks.secure || connected;
        resolve({
          url: url.href,
          status: res.statusCode ?? 0,
          headers: flatHeaders(res.rawHeaders),
          httpVersion: res.httpVersion,
          remoteAddress: res.socket?.remoteAddress ?? '',
          timings: {
            dns_ms: round(marks.lookup ? marks.lookup - t0 : 0),
            connect_ms: round(connected - connectStart),
            tls_ms: round(marks.secure ? secured - connected : 0),
            ttfb_ms: round(marks.response - t0),
            download_ms: round(marks.end - marks.response),
            total_ms: round(marks.end - t0),
          },
          transferBytes,
          decodedBytes,
          truncated,
          ...(opts.keepBody ? { body: Buffer.concat(kept) } : {}),
        });
      }
      done.then(finish, (err: Error) => {
        if (truncated) return;
        // A body that does not decode still has a size; a dropped connection does not.
        if ((err as NodeJS.ErrnoException).code?.startsWith('Z_') || /decompress|incorrect header/i.test(err.message)) finish();
        else fail(err);
      });
    });
    req.end();
  });
}

function decoderFor(encoding: string): Transform | null {
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.createGunzip();
  if (encoding === 'deflate') return zlib.createInflate();
  if (encoding === 'br') return zlib.createBrotliDecompress();
  if (encoding === 'zstd' && 'createZstdDecompress' in zlib) return (zlib as unknown as { createZstdDecompress(): Transform }).createZstdDecompress();
  return null;
}

/** Response headers as lower-case name → value; repeated headers joined (`set-cookie` with newlines). */
function flatHeaders(raw: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    const value = raw[i + 1];
    out[name] = name in out ? `${out[name]}${name === 'set-cookie' ? '\n' : ', '}${value}` : value;
  }
  return out;
}
