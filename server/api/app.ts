import express, { type ErrorRequestHandler, type Request, type Response } from 'express';
import type { AppDeps } from './deps.js';
import {
  asDomainError,
  DependencyDownError,
  ForbiddenError,
  HttpError,
  NotFoundError,
  OverLimitError,
  TargetRefusedError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  httpReply,
} from '../errors/index.js';
import { rateHeaders, type RateState } from './limiter.js';
import { carriesNotice, JSON_BODY_LIMIT_BYTES, type AnyRoute } from './route.js';
import { allRoutes } from './routes/index.js';
import { swaggerAssets } from './routes/service.js';
import { checkQueryNames, parseInput } from './validation.js';
import { limitJsonDepth } from './json-depth.js';
import { probeRouter } from '../probes.js';
import { renderOwnerFor } from '../render/browser-pool.js';
import type { KeyRecord } from '../keys/key-store.js';

const NOTICE =
  'You are using the API without a key, under the strictest limits. Create a free key with POST /api/keys (no sign-up) for higher limits; see /api/health for docs.';

const JSON_TYPES = ['application/json', 'application/*+json'];

/** Builds the Express app; nothing listens or connects here. */
export function createApp(deps: AppDeps, routes: AnyRoute[] = allRoutes(deps)) {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy);
  app.set('query parser', 'simple');
  // Before logging and metrics: orchestrators call the probes every few seconds.
  app.use(probeRouter(deps));

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
  // Routes with their own body size parse first; the global parser then leaves their body alone.
  for (const spec of routes) {
    if (spec.jsonBodyMaxBytes) app[spec.method](spec.path, express.json({ limit: spec.jsonBodyMaxBytes, type: JSON_TYPES }));
  }
  app.use(express.json({ limit: JSON_BODY_LIMIT_BYTES, type: JSON_TYPES }));
  app.use(limitJsonDepth(deps.config.JSON_MAX_DEPTH));

  app.use('/docs/ui', swaggerAssets());
  for (const spec of routes) mount(app, spec, deps);
  refuseOtherMethods(app, routes);

  app.use((req) => {
    throw new NotFoundError(`no route for ${req.method} ${req.path}; see /api/health for the list of APIs`);
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
      throw new UnsupportedMediaTypeError(`Content-Type must be ${spec.rawBody.type}`);
    }
    const key = await authenticate(req, spec, deps);
    res.locals.keyId = key?.id;

    if (!spec.ignoresQuery) checkQueryNames(spec.query, req.query);
    const query = spec.query ? parseInput(spec.query, req.query, 'query') : {};
    const params = spec.params ? parseInput(spec.params, req.params, 'path') : {};
    let body: unknown;
    if (spec.body) {
      const hasBody = req.headers['content-length'] !== '0' && (req.headers['content-length'] || req.headers['transfer-encoding']);
      if (hasBody && !req.is('application/json')) throw new UnsupportedMediaTypeError('Content-Type must be application/json');
      body = parseInput(spec.body, req.body, 'body');
    } else if (spec.rawBody) {
      body = typeof req.body === 'string' ? req.body : '';
    }

    if (key && spec.keyCheck) spec.keyCheck(key);
    const charge = await applyLimits(req, spec, key, deps, spec.cost ? spec.cost(body) : 1);
    if (charge) res.set(rateHeaders(charge.rate));
    if (!key && carriesNotice(spec)) addNotice(res);

    const owner = renderOwnerFor(deps.config.RENDER_SHARE, key, req.ip ?? 'unknown');
    try {
      await spec.handler({ query, body, params, key, owner, req, res });
    } catch (err) {
      // A refused target cost us nothing: the call is not charged to the caller's quota.
      if (charge && asDomainError(err) instanceof TargetRefusedError) {
        await charge.giveBack().catch((e: unknown) => deps.log.warn({ err: e }, 'could not give back a refused call'));
        if (!res.headersSent) res.set(rateHeaders({ ...charge.rate, remaining: charge.rate.remaining + charge.points }));
      }
      throw err;
    }
  });
}

/**
 * A known path asked with a method it does not have answers 405 naming the ones it has
 * (RFC 9110 §15.5.6). Registered after every route, so only the unmatched methods land here;
 * OPTIONS never does (the CORS preflight answers it first).
 */
function refuseOtherMethods(app: express.Express, routes: AnyRoute[]) {
  const methods = new Map<string, Set<string>>();
  for (const r of routes) {
    const m = methods.get(r.path) ?? new Set<string>();
    m.add(r.method.toUpperCase());
    if (r.method === 'get') m.add('HEAD');
    methods.set(r.path, m);
  }
  for (const [path, allowed] of methods) {
    const allow = [...allowed, 'OPTIONS'].join(', ');
    app.all(path, (req) => {
      throw new HttpError(405, `${req.method} is not allowed on ${req.path}; use ${allow}`, 'method_not_allowed', { Allow: allow });
    });
  }
}

/** Finds the caller's key in X-API-Key, Authorization: Bearer or ?key=, and applies the route's key rule. */
async function authenticate(req: Request, spec: AnyRoute, deps: AppDeps): Promise<KeyRecord | null> {
  const plain = credential(req);
  if (!plain) {
    if (spec.key === 'required' || spec.key === 'required-any-status') {
      throw new UnauthorizedError('this endpoint requires an API key: send it as X-API-Key, Authorization: Bearer <key> or ?key=; create one with POST /api/keys');
    }
    return null;
  }
  const key = await deps.keys.findByPlain(plain);
  if (!key) {
    if (spec.key === 'none') return null;
    throw new UnauthorizedError('the API key is not valid; create one with POST /api/keys');
  }
  if (key.status !== 'active' && spec.key !== 'none' && spec.key !== 'required-any-status') {
    throw new ForbiddenError(
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

/** What a call was charged, and how to take the charge back. */
interface Charge {
  rate: RateState;
  points: number;
  giveBack(): Promise<void>;
}

/** `points`: the requests this call counts as (the route's `cost`). */
async function applyLimits(req: Request, spec: AnyRoute, key: KeyRecord | null, deps: AppDeps, points: number): Promise<Charge | null> {
  const limit = spec.limit ?? 'cheap';
  try {
    if (key && !unmetered.has(limit)) {
      const daily = deps.keys.dailyLimit(key);
      // Limits and the period count in one round trip; a refused call is taken back out of the count.
      const [state, counted] = await Promise.allSettled([deps.limiter.consumeByKey(key, limit, daily, points), deps.keys.countCall(key, points)]);
      if (state.status === 'rejected') {
        if (counted.status === 'fulfilled') await deps.keys.uncountCall(key, points);
        throw state.reason;
      }
      if (counted.status === 'rejected') throw counted.reason;
      const giveBack = async () => {
        await Promise.all([deps.limiter.giveBackByKey(key, limit, daily, points), deps.keys.uncountCall(key, points)]);
      };
      return { rate: state.value, points, giveBack };
    }
    const caller = key && limit === 'cheap' ? `key:${key.hash}` : (req.ip ?? 'unknown');
    const rate = await deps.limiter.consumeByIp(limit, caller);
    return rate && { rate, points: 1, giveBack: () => deps.limiter.giveBackByIp(limit, caller) };
  } catch (err) {
    if (err instanceof OverLimitError) deps.metrics.rejections.inc({ limit });
    // Cheap endpoints (health, discovery, docs) stay up while the store is away; the ones that
    // need it for their own work answer 503 there.
    if (limit === 'cheap' && asDomainError(err) instanceof DependencyDownError) return null;
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
    const reply = httpReply(err);
    // Only our own failures get a stack; 502/503/504 are the target's or the moment's, and the
    // request line already records them.
    if (reply.internal) deps.log.error({ err, route: res.locals.route ?? req.path }, 'request failed');
    if (res.headersSent) {
      res.end();
      return;
    }
    res.set(reply.headers).status(reply.status).json(reply.body);
  };
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
