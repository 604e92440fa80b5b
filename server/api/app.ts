import express, { type ErrorRequestHandler, type Request, type Response } from 'express';
import type { AppDeps } from './deps.js';
import { HttpError } from './errors.js';
import { rateHeaders, type RateState } from './limiter.js';
import type { AnyRoute } from './route.js';
import { allRoutes } from './routes/index.js';
import { swaggerAssets } from './routes/service.js';
import { parseInput } from './validation.js';
import { BlockedTargetError } from '../net/target-policy.js';
import type { KeyRecord } from '../keys/key-store.js';

const NOTICE =
  'You are using the API without a key, under the strictest limits. Create a free key with POST /api/keys (no sign-up) for higher limits; see /api/health for docs.';

/** Builds the Express app; nothing listens or connects here. */
export function createApp(deps: AppDeps, routes: AnyRoute[] = allRoutes(deps)) {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy);
  app.set('query parser', 'simple');

  app.use((req, res, next) => {
    res.locals.started = process.hrtime.bigint();
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Target-Status');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Authorization, X-API-Key, Accept');
      res.setHeader('Access-Control-Max-Age', '86400');
      res.status(204).end();
      return;
    }
    res.on('finish', () => logRequest(deps, req, res));
    next();
  });
  app.use(express.json({ limit: '1mb', type: ['application/json', 'application/*+json'] }));

  app.use('/docs/ui', swaggerAssets());
  for (const spec of routes) mount(app, spec, deps);

  app.use((req) => {
    throw new HttpError(404, `no route for ${req.method} ${req.path}; see /api/health for the list of APIs`);
  });
  app.use(errorHandler(deps));
  return app;
}

function mount(app: express.Express, spec: AnyRoute, deps: AppDeps) {
  const parsers = spec.rawBody
    ? [express.text({ type: () => true, limit: spec.rawBody.maxBytes })]
    : [];
  app[spec.method](spec.path, ...parsers, async (req: Request, res: Response) => {
    res.locals.route = spec.path;
    if (spec.rawBody && !req.is(spec.rawBody.type)) {
      throw new HttpError(415, `Content-Type must be ${spec.rawBody.type}`);
    }
    const key = await authenticate(req, spec, deps);
    res.locals.keyId = key?.id;

    const query = spec.query ? parseInput(spec.query, req.query, 'query') : {};
    const params = spec.params ? parseInput(spec.params, req.params, 'path') : {};
    let body: unknown;
    if (spec.body) {
      const hasBody = req.headers['content-length'] !== '0' && (req.headers['content-length'] || req.headers['transfer-encoding']);
      if (hasBody && !req.is('application/json')) throw new HttpError(415, 'Content-Type must be application/json');
      body = parseInput(spec.body, req.body, 'body');
    } else if (spec.rawBody) {
      body = typeof req.body === 'string' ? req.body : '';
    }

    const rate = await applyLimits(req, spec, key, deps);
    if (rate) res.set(rateHeaders(rate));
    if (!key && !spec.noNotice) addNotice(res);

    await spec.handler({ query, body, params, key, req, res });
  });
}

/** Finds the caller's key in X-API-Key, Authorization: Bearer or ?key=, and applies the route's key rule. */
async function authenticate(req: Request, spec: AnyRoute, deps: AppDeps): Promise<KeyRecord | null> {
  const plain = credential(req);
  if (!plain) {
    if (spec.key === 'required' || spec.key === 'required-any-status') {
      throw new HttpError(401, 'this endpoint requires an API key: send it as X-API-Key, Authorization: Bearer <key> or ?key=; create one with POST /api/keys');
    }
    return null;
  }
  const key = await deps.keys.findByPlain(plain);
  if (!key) {
    if (spec.key === 'none') return null;
    throw new HttpError(401, 'the API key is not valid; create one with POST /api/keys');
  }
  if (key.status !== 'active' && spec.key !== 'none' && spec.key !== 'required-any-status') {
    throw new HttpError(
      403,
      key.status === 'inactive'
        ? 'this API key is inactive: open the verification link sent to its email address to activate it'
        : 'this API key is suspended; contact the operator',
    );
  }
  return key;
}

export function credential(req: Request): string | undefined {
  const header = req.get('x-api-key');
  if (header) return header.trim();
  const auth = req.get('authorization');
  if (auth && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '').trim();
  const q = req.query.key;
  return typeof q === 'string' && q ? q : undefined;
}

const unmetered = new Set(['cheap', 'keys', 'verify']);

async function applyLimits(req: Request, spec: AnyRoute, key: KeyRecord | null, deps: AppDeps): Promise<RateState | null> {
  const limit = spec.limit ?? 'cheap';
  try {
    if (key && !unmetered.has(limit)) {
      const state = await deps.limiter.consumeByKey(key, limit, deps.keys.dailyLimit(key));
      await deps.keys.countCall(key);
      return state;
    }
    const caller = key && limit === 'cheap' ? `key:${key.hash}` : (req.ip ?? 'unknown');
    return await deps.limiter.consumeByIp(limit, caller);
  } catch (err) {
    if (err instanceof HttpError && err.status === 429) deps.metrics.rejections.inc({ limit });
    throw err;
  }
}

/** Keyless JSON replies carry `_notice` (contract, general rule 2). */
function addNotice(res: Response) {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    if (body && typeof body === 'object' && !Array.isArray(body) && res.statusCode < 400) {
      return json({ ...(body as object), _notice: NOTICE });
    }
    return json(body);
  };
}

function errorHandler(deps: AppDeps): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const e = toHttpError(err);
    // Only our own failures get a stack; 502/503/504 are the target's or the moment's, and the
    // request line already records them.
    if (e.status === 500) deps.log.error({ err, route: res.locals.route ?? req.path }, 'request failed');
    if (res.headersSent) {
      res.end();
      return;
    }
    res.set(e.headers).status(e.status).json({ error: e.message });
  };
}

function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof BlockedTargetError) return new HttpError(400, `target refused: ${err.message}`, 'blocked_target');
  const e = err as { type?: string; status?: number; limit?: number; message?: string };
  if (e?.type === 'entity.parse.failed') return new HttpError(400, 'request body is not valid JSON');
  if (e?.type === 'entity.too.large') return new HttpError(413, `request body is larger than the limit of ${e.limit} bytes`);
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return new HttpError(415, e.message ?? 'unsupported encoding');
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) return new HttpError(e.status, e.message ?? 'bad request');
  return new HttpError(500, 'internal error');
}

function logRequest(deps: AppDeps, req: Request, res: Response) {
  const route = (res.locals.route as string | undefined) ?? 'unmatched';
  const seconds = Number(process.hrtime.bigint() - (res.locals.started as bigint)) / 1e9;
  deps.metrics.requests.inc({ route, method: req.method, status: String(res.statusCode) });
  deps.metrics.duration.observe({ route, method: req.method }, seconds);
  deps.log.info(
    { method: req.method, route, path: req.path, status: res.statusCode, ms: Math.round(seconds * 1000), key: res.locals.keyId },
    'request',
  );
}
