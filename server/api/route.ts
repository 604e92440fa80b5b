import type { Request, Response } from 'express';
import { z } from 'zod';
import type { ApiName } from './api-names.js';
import type { LimitName } from './limit-rules.js';
import type { KeyRecord } from '../keys/key-store.js';
import type { RenderOwner } from '../render/browser-pool.js';

/** How a route treats API keys. `optional`: works without, with stricter limits and `_notice`. */
export type KeyRule = 'none' | 'optional' | 'required' | 'required-any-status';

/**
 * Keyless JSON replies of the routes a key would change (`optional`) carry `_notice` saying
 * how to get a key (contract, general rule 2). Routes that never take a key (creating one,
 * health, the documents) would only be told something beside the point.
 */
export const carriesNotice = (r: Pick<RouteSpec, 'key'>) => r.key === 'optional';

/** The largest JSON request body the app parses. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

export interface ResponseDoc {
  description: string;
  /** Media type → zod schema (JSON) or `binary` for images/PDF. */
  content?: Record<string, z.ZodType | 'binary' | 'text'>;
}

/** The caller's key as a route's rule makes it: always there when the rule requires one. */
export type KeyOf<K extends KeyRule> = K extends 'required' | 'required-any-status' ? KeyRecord : KeyRecord | null;

/** What a handler receives: parsed input plus the caller's key (null when keyless, never when the route requires one). */
export interface RouteInput<Q, B, P, K extends KeyRule = KeyRule> {
  query: Q;
  body: B;
  params: P;
  key: KeyOf<K>;
  /** Whose share of the browser this request's renders count against (`deps.browser.as(owner)`): its key, or its IP when keyless. */
  owner: RenderOwner;
  req: Request;
  res: Response;
}

/**
 * One endpoint's whole contract: input schemas (used to validate and to write the
 * OpenAPI document), auth, limits, documented responses and the handler.
 */
export interface RouteSpec<Q = unknown, B = unknown, P = unknown, K extends KeyRule = KeyRule> {
  api: ApiName;
  method: 'get' | 'post' | 'delete';
  /** Express path, e.g. `/api/screenshot/status/:job_id`. */
  path: string;
  summary: string;
  description?: string;
  key: K;
  /** Limiter bucket; omitted means `cheap`. */
  limit?: LimitName;
  /**
   * Requests one call counts as, in the key's quotas and usage (a comparison: one per side and
   * check), from the validated body. @default 1
   */
  cost?: (body: B) => number;
  /** Refuses a key this route does not serve (a tier too low) before anything is counted. */
  keyCheck?: (key: KeyRecord) => void;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** A JSON body larger than the app's 1 MB default (bytes on the wire, after decompression). */
  jsonBodyMaxBytes?: number;
  /** Raw body media type when the body is not JSON (e.g. `text/html`); `example` shows one in the documents. */
  rawBody?: { type: string; maxBytes: number; example?: string };
  params?: z.ZodType<P>;
  responses: Record<number, ResponseDoc>;
  /** Hidden from OpenAPI (e.g. metrics). */
  hidden?: boolean;
  /**
   * A static asset (a script tag's `src`, the docs page): query strings such as cache busters
   * are ignored instead of refused. Every other route answers 400 to a parameter it does not take.
   */
  ignoresQuery?: boolean;
  handler(input: RouteInput<Q, B, P, K>): Promise<void> | void;
}

/** A route of any input types, as held in the route list (each spec keeps its own types). */
export type AnyRoute = RouteSpec<any, any, any, KeyRule>;

/** Identity function that infers the schema types for the handler. */
export function defineRoute<Q = Record<string, never>, B = undefined, P = Record<string, never>, K extends KeyRule = KeyRule>(
  spec: RouteSpec<Q, B, P, K>,
): RouteSpec<Q, B, P, K> {
  return spec;
}

/** The one error envelope (DESIGN.md): `{ "error": "…" }` naming the parameter and the rule. */
export const errorBody = z.object({ error: z.string().describe('What went wrong, naming the parameter and the rule') });

/** A documented error reply with the error envelope. */
export const errorResponse = (description: string): ResponseDoc => ({ description, content: { 'application/json': errorBody } });

/** The failures every endpoint that fetches a caller's target can answer; pass a reply to tailor one. */
export const targetFailures = (tailored: Record<number, ResponseDoc> = {}): Record<number, ResponseDoc> => ({
  400: errorResponse('Invalid parameter, or a target that is not allowed'),
  429: errorResponse('Rate limit exceeded (Retry-After says when to retry)'),
  502: errorResponse('Target unreachable (DNS, refused, reset, TLS)'),
  504: errorResponse('Target timed out'),
  ...tailored,
});

// ---- parameter helpers shared by every router ----

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

/** Integer query parameter; "" counts as absent. */
export const qInt = (min: number, max: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).max(max));

/** Decimal number parameter (`99.5`); "" counts as absent. */
export const qNumber = (min: number, max: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().min(min).max(max));

const boolWords = z.enum(['true', 'false', '1', '0', 'yes', 'no']);
const lowered = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : emptyToUndefined(v));
const truthy = (v: string) => v === 'true' || v === '1' || v === 'yes';

/** Boolean query parameter accepting true/false/1/0/yes/no. */
export const qBool = (fallback: boolean) =>
  z.preprocess(lowered, boolWords.default(fallback ? 'true' : 'false')).transform(truthy);

/** Boolean query parameter whose absence the route tells apart from `false` (its default depends on other parameters). */
export const qOptionalBool = () =>
  z.preprocess(lowered, boolWords.optional()).transform((v) => (v === undefined ? undefined : truthy(v)));

/** An absolute http(s) URL; a bare host name gets `https://`. */
export const qUrl = () =>
  z
    .string()
    .trim()
    .min(1)
    .transform((v, ctx) => {
      const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(v) ? v : `https://${v}`;
      try {
        const u = new URL(withScheme);
        if (u.protocol !== 'http:' && u.protocol !== 'https:') {
          ctx.addIssue({ code: 'custom', message: 'must use the http or https scheme' });
          return z.NEVER;
        }
        return u.href;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be an absolute http or https URL' });
        return z.NEVER;
      }
    })
    .meta({ format: 'uri', example: 'https://example.com' });
