import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { BadInputError } from '../../errors/index.js';
import { defineRoute, errorResponse } from '../route.js';
import type { KeyRecord } from '../../keys/key-store.js';
import { keyStatuses, tierNames, tierQuotas } from '../../keys/tiers.js';
import { documentLimits } from '../../links/document-input.js';

const usageRecord = z.object({
  calls_this_period: z.number().int().describe('Calls made in the current 30-day period'),
  rate_limit_remaining_today: z.number().int().describe('Requests remaining in the current 24-hour window'),
  status: z.enum(keyStatuses),
  tier: z.enum(tierNames),
  daily_limit: z.number().int(),
  verified: z.boolean(),
  period_start: z.string().describe('Start of the current 30-day period (ISO 8601)'),
  period_end: z.string(),
  per_minute: z.number().int().describe('Requests allowed per minute for the tier'),
  documents_per_call: z
    .object({ max_documents: z.number().int(), max_bytes: z.number().int() })
    .describe('What one `POST /api/deadlinks/documents` call may carry with this key: documents, and bytes of their content'),
});

const createdKey = z.object({
  api_key: z.string().describe('Shown once; store it now'),
  rate_limit: z.string(),
  status: z.enum(keyStatuses),
  tier: z.enum(tierNames),
  daily_limit: z.number().int(),
  webhook_secret: z.string().describe('Standard Webhooks secret that signs this key\'s webhook deliveries'),
  message: z.string(),
  quick_start: z.record(z.string(), z.string()),
});

export function keyRoutes(deps: AppDeps) {
  const base = deps.config.baseUrl;

  const usageOf = async (key: KeyRecord) => {
    const daily = deps.keys.dailyLimit(key);
    // One round trip for both counters: /api/usage is the API's hottest cheap call.
    const [calls, usedToday] = await deps.redis.mget(deps.keys.periodKey(key), deps.limiter.dailyCountKey(key, daily));
    const period = deps.keys.period(key);
    return {
      calls_this_period: Number(calls ?? 0),
      rate_limit_remaining_today: Math.max(0, daily - Number(usedToday ?? 0)),
      status: key.status,
      tier: key.tier,
      daily_limit: daily,
      verified: key.verified,
      period_start: period.start.toISOString(),
      period_end: period.end.toISOString(),
      per_minute: tierQuotas[key.tier].perMinute,
      documents_per_call: documentLimits[key.tier],
    };
  };

  return [
    defineRoute({
      api: 'keys',
      method: 'post',
      path: '/api/keys',
      summary: 'Create an API key',
      description:
        'Without a body (or without `email`) the key is active at once with 20 requests per day. With `email` the key stays `inactive` until the link mailed to that address is opened; it then becomes an active, verified free key with 50 requests per day. Limited to 10 keys per hour per client IP.',
      key: 'none',
      limit: 'keys',
      body: z.object({ email: z.email().max(254).optional() }).strict().optional(),
      responses: {
        200: { description: 'The new key (shown only once)', content: { 'application/json': createdKey } },
        400: errorResponse('Invalid email'),
        429: errorResponse('Too many keys created from this address'),
      },
      async handler({ body, res }) {
        const email = body?.email;
        const { plain, record, token } = await deps.keys.create(email);
        const sent = token && email ? await deps.mailer.sendVerification(email, `${base}/api/verify?token=${encodeURIComponent(token)}`) : undefined;
        const daily = deps.keys.dailyLimit(record);
        res.json({
          api_key: plain,
          rate_limit: `${daily} requests per day`,
          status: record.status,
          tier: record.tier,
          daily_limit: daily,
          webhook_secret: record.webhook_secret,
          message: createdMessage(email, sent),
          quick_start: quickStart(base, plain),
        });
      },
    }),
    defineRoute({
      api: 'keys',
      method: 'get',
      path: '/api/keys',
      summary: 'Show the status of a key',
      description: 'Call with `action=info` and the key (as `key`, `X-API-Key` or a bearer token). Works for inactive and suspended keys too.',
      key: 'required-any-status',
      query: z.object({ action: z.enum(['info']), key: z.string().optional() }),
      responses: {
        200: { description: 'Key status and usage', content: { 'application/json': usageRecord.extend({ key_id: z.string(), created_at: z.string(), email_verified: z.boolean() }) } },
        401: errorResponse('Missing or unknown key'),
      },
      async handler({ key, res }) {
        res.json({ key_id: key.id, created_at: key.created_at, email_verified: key.verified && !!key.email, ...(await usageOf(key)) });
      },
    }),
    defineRoute({
      api: 'keys',
      method: 'get',
      path: '/api/usage',
      summary: 'Usage of the calling key',
      description: 'Not counted against any quota: a client may read its tier\'s limits here before its first call (the deadlinks action sizes its document calls by `documents_per_call`).',
      key: 'required-any-status',
      query: z.object({ key: z.string().optional() }),
      responses: {
        200: { description: 'Usage record', content: { 'application/json': usageRecord } },
        401: errorResponse('No key or an invalid key'),
      },
      async handler({ key, res }) {
        res.json(await usageOf(key));
      },
    }),
    defineRoute({
      api: 'keys',
      method: 'get',
      path: '/api/verify',
      summary: 'Activate an email key',
      description: 'Opens from the verification mail. Tokens are single-use and expire after 24 hours.',
      key: 'none',
      limit: 'verify',
      query: z.object({ token: z.string().min(1).max(200) }),
      responses: {
        200: { description: 'HTML confirmation page', content: { 'text/html': 'text' } },
        302: { description: 'Redirect to the configured confirmation page (VERIFY_REDIRECT_URL)' },
        400: errorResponse('Invalid or expired token'),
      },
      async handler({ query, res }) {
        const key = await deps.keys.verify(query.token);
        if (!key) throw new BadInputError('token is invalid or expired (verification links are valid for 24 hours and work once)');
        if (deps.config.VERIFY_REDIRECT_URL) {
          res.redirect(302, deps.config.VERIFY_REDIRECT_URL);
          return;
        }
        res.type('html').send(confirmationPage(base, deps.keys.dailyLimit(key)));
      },
    }),
  ];
}

function quickStart(base: string, key: string): Record<string, string> {
  return {
    usage: `curl -H "X-API-Key: ${key}" "${base}/api/usage"`,
    deadlinks: `curl -H "X-API-Key: ${key}" "${base}/api/deadlinks?url=https://example.com&mode=quick"`,
    screenshot: `curl -H "X-API-Key: ${key}" -o shot.png "${base}/api/screenshot?url=https://example.com"`,
    seo: `curl -H "X-API-Key: ${key}" "${base}/api/seo?url=https://example.com"`,
    docs: `${base}/`,
  };
}

function confirmationPage(base: string, daily: number): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>API key activated</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2328}code{background:#f6f8fa;padding:.1em .3em;border-radius:4px}</style></head>
<body><h1>Your API key is active</h1><p>It now allows <strong>${daily} requests per day</strong>. Send it as the <code>X-API-Key</code> header.</p>
<p><a href="${base}/">Read the API documentation</a></p></body></html>`;
}

function createdMessage(email: string | undefined, sent: 'mailed' | 'logged' | undefined): string {
  if (!email) return 'The key is active now. Keep it secret: it is shown only once.';
  const after = 'The key is inactive until the link is opened (within 24 hours); it then allows 50 requests per day.';
  if (sent === 'mailed') return `A verification link was sent to ${email}. ${after}`;
  // Nothing was mailed: the link is in the service's log, where only the operator can read it.
  return `This instance sends no mail, so no link was sent to ${email}: its operator finds the verification link in the service's log. ${after} For a key that works now, create one without email.`;
}
