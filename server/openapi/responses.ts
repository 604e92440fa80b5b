import { carriesNotice, JSON_BODY_LIMIT_BYTES, type AnyRoute, type ResponseDoc } from '../api/route.js';
import { jsonSchema, type Json } from './json-schema.js';

export const errorSchemaRef = { $ref: '#/components/schemas/Error' };

/** Response headers every document defines once and its responses reference. */
export const responseHeaders: Record<string, Json> = {
  'RateLimit-Limit': {
    description: 'Requests allowed in the window closest to running out (per minute, per day, or the endpoint\'s own window)',
    schema: { type: 'integer', minimum: 1, example: 60 },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in that window',
    schema: { type: 'integer', minimum: 0, example: 59 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until that window starts over',
    schema: { type: 'integer', minimum: 0, example: 60 },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying',
    schema: { type: 'integer', minimum: 1, example: 30 },
  },
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
const rateLimitHeaders = { 'RateLimit-Limit': ref('RateLimit-Limit'), 'RateLimit-Remaining': ref('RateLimit-Remaining'), 'RateLimit-Reset': ref('RateLimit-Reset') };

export const noticeProperty = {
  type: 'string',
  description: 'Present only on replies to requests without an API key: the keyless limits and how to get a key',
};


/**
 * The replies the app itself gives around any handler (app.ts `mount`), by what the route
 * declares: input checks, keys, bodies, limits, our own failures and Redis being away.
 */
function replies(r: AnyRoute): Record<number, string> {
  const out: Record<number, string> = {};
  if (r.query || r.body || r.params || r.rawBody || !r.ignoresQuery) {
    out[400] = 'Invalid input: the message names the parameter, what it must be and what was given; also an unknown query parameter';
  }
  if (r.key !== 'none') {
    out[401] = r.key === 'optional' ? 'The API key given does not exist (omit it to call without a key)' : 'API key missing or not valid';
  }
  if (r.key === 'optional' || r.key === 'required') out[403] = 'The API key is inactive (its email is not verified yet) or suspended';
  if (r.body || r.rawBody) {
    out[413] = `Request body larger than ${r.rawBody ? r.rawBody.maxBytes : JSON_BODY_LIMIT_BYTES} bytes`;
    out[415] = `Content-Type is not ${r.rawBody ? r.rawBody.type : 'application/json'}`;
  }
  out[429] = 'Rate limit reached: the message says which; retry after Retry-After seconds';
  out[500] = 'A failure of the service itself (a bug); the message has no internals';
  // Every route counts against a limiter in Redis, and keys live there too.
  out[503] = 'A dependency of the service is down for a moment (Redis; for renders, the browser); retry after Retry-After seconds';
  return out;
}

/** Every status the route can answer: its own documented replies, then the app's. */
export function responsesOf(r: AnyRoute): Record<string, Json> {
  const own = Object.fromEntries(Object.entries(r.responses).map(([status, doc]) => [status, response(r, Number(status), doc)]));
  const app = Object.fromEntries(
    Object.entries(replies(r))
      .filter(([status]) => !(status in own))
      .map(([status, description]) => [status, { description, content: { 'application/json': { schema: errorSchemaRef } } }]),
  );
  const all: Record<string, Json> = { ...own, ...app };
  for (const [status, res] of Object.entries(all)) {
    const code = Number(status);
    if (code >= 200 && code < 300) res.headers = { ...rateLimitHeaders };
    if (code === 429) res.headers = { 'Retry-After': ref('Retry-After'), ...rateLimitHeaders };
    if (code === 503) res.headers = { 'Retry-After': ref('Retry-After') };
  }
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => Number(a) - Number(b)));
}

function response(r: AnyRoute, status: number, doc: ResponseDoc): Json {
  if (!doc.content) return { description: doc.description };
  const content: Record<string, Json> = {};
  for (const [type, s] of Object.entries(doc.content)) {
    if (s === 'binary') content[type] = { schema: { type: 'string', contentMediaType: type } };
    else if (s === 'text') content[type] = { schema: { type: 'string' } };
    else if (status >= 400 && isErrorEnvelope(s)) content[type] = { schema: errorSchemaRef };
    else content[type] = { schema: withNotice(r, status, jsonSchema(s, 'output')) };
  }
  return { description: doc.description, content };
}

function withNotice(r: AnyRoute, status: number, schema: Json): Json {
  if (!carriesNotice(r) || status >= 300 || schema.type !== 'object' || !schema.properties) return schema;
  return { ...schema, properties: { ...(schema.properties as Json), _notice: noticeProperty } };
}

/** The `{ error }` envelope: shown as the one shared schema. */
function isErrorEnvelope(s: Parameters<typeof jsonSchema>[0]): boolean {
  const js = jsonSchema(s, 'output');
  const props = Object.keys((js.properties as Json | undefined) ?? {});
  return props.length === 1 && props[0] === 'error';
}
