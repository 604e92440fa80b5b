import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { BadInputError, UnauthorizedError, httpReply } from '../../errors/index.js';
import { defineRoute, qBool, qInt, qOptionalBool, qUrl, errorResponse } from '../route.js';
import { originOf, scopeTargetHeaders, targetHeadersBody, targetHeadersQuery } from '../../net/target-headers.js';
import { captureScreenshot, screenshotDefaults, screenshotDeps, viewportRange, type ScreenshotOptions } from '../../render/screenshot.js';
import type { RenderOwner } from '../../render/browser-pool.js';
import { viewportNames, viewportPresets } from '../../render/viewports.js';

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);
const optionalText = (max: number, what: string) =>
  z.preprocess(emptyToUndefined, z.string().max(max).optional()).describe(what);

/** `x,y,width,height` in CSS px. */
const clipParam = z
  .preprocess(emptyToUndefined, z.string().optional())
  .transform((v, ctx) => {
    if (v === undefined) return undefined;
    const parts = v.split(',').map((p) => p.trim());
    const nums = parts.map(Number);
    if (parts.length !== 4 || nums.some((n) => !Number.isInteger(n) || n < 0)) {
      ctx.addIssue({ code: 'custom', message: 'must be four non-negative integers x,y,width,height' });
      return z.NEVER;
    }
    const [x, y, width, height] = nums;
    if (width < 1 || height < 1 || width > 3840 || height > 2160) {
      ctx.addIssue({ code: 'custom', message: 'width and height must be between 1 and 3840x2160' });
      return z.NEVER;
    }
    return { x, y, width, height };
  })
  .describe('Crop region `x,y,width,height` in CSS px of the page: that region is the image (full_page then defaults to false; with full_page=true, selector or format=pdf it is a 400)')
  .meta({ type: 'string', example: '0,0,600,400' });

const language = z
  .preprocess(emptyToUndefined, z.string().max(100).regex(/^[A-Za-z0-9*][A-Za-z0-9,;=.\-\s*]*$/, 'must be a language list like de-DE,de;q=0.9').optional());

const screenshotQuery = z
  .object({
  url: qUrl().describe('Page to capture (http or https)'),
  viewport: z.preprocess(emptyToUndefined, z.enum(viewportNames).optional()).describe('Device preset; overrides width and height'),
  width: qInt(viewportRange.width.min, viewportRange.width.max).default(screenshotDefaults.width).describe('Viewport width in CSS px'),
  height: qInt(viewportRange.height.min, viewportRange.height.max).default(screenshotDefaults.height).describe('Viewport height in CSS px'),
  full_page: qOptionalBool().describe('Whole page (scrolled once for lazy content) or the viewport only. Default true, or false when clip or selector chooses a region'),
  clip: clipParam,
  format: z.preprocess(emptyToUndefined, z.enum(['png', 'jpeg', 'webp', 'pdf']).default(screenshotDefaults.format)),
  quality: qInt(1, 100).default(screenshotDefaults.quality).describe('JPEG and WebP quality'),
  dark_mode: qBool(false).describe('Emulates prefers-color-scheme: dark'),
  scale: z
    .preprocess(emptyToUndefined, z.enum(['1', '2', '3']).default('1'))
    .transform((v) => Number(v) as 1 | 2 | 3)
    .describe("Device scale factor (default 1, as the contract says, also with a preset: the image is the preset's size × scale). Pass the device's own ratio (e.g. 3 for iphone_14) for a native-resolution capture."),
  selector: optionalText(500, 'CSS selector of the element to capture: that element is the image (full_page then defaults to false; 400 when nothing matches, and with full_page=true, clip or format=pdf)'),
  delay: qInt(0, 30_000).default(0).describe('ms to wait before capture; at most 10000 without a key, 30000 with one'),
  block_ads: qBool(false).describe('Blocks ads and trackers (AdGuard lists) and opts out of cookie dialogs'),
  js: optionalText(2000, 'Script run in the page before capture (an async function body); errors give 400'),
  wait_for: optionalText(500, 'CSS selector to wait for before capture'),
  http_username: optionalText(200, 'HTTP Basic Auth user toward the target; requires an API key'),
  http_password: optionalText(200, 'HTTP Basic Auth password toward the target; requires an API key'),
  target_headers: targetHeadersQuery,
  accept_language: language.describe('Accept-Language header and browser locale, e.g. de-DE'),
  lang: language.describe('Alias of accept_language'),
  response_type: z
    .preprocess(emptyToUndefined, z.enum(['binary', 'json']).default('binary'))
    .describe('`binary` (default): the image itself. `json`: `{url, image (base64), format, width, height, target_status}`, the shape of a queued job\'s result'),
  key: z.string().optional(),
})
  .superRefine((q, ctx) => {
    // A region is never dropped in silence: asked for next to something that excludes it, it is a 400.
    const conflict = (path: 'clip' | 'selector', message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (q.clip && q.selector) conflict('clip', 'and selector both choose the region to capture; give one of them');
    for (const region of ['clip', 'selector'] as const) {
      if (!q[region]) continue;
      if (q.full_page === true) conflict(region, `chooses a region, full_page=true the whole page; drop one of them (full_page is false by default with ${region})`);
      if (q.format === 'pdf') conflict(region, `applies to images; format=pdf prints the whole page: drop ${region} or choose png, jpeg or webp`);
    }
  });

const batchBody = z
  .object({
    urls: z.array(qUrl()).min(1).max(10),
    format: z.enum(['png', 'jpeg', 'webp']).default('png'),
    width: z.number().int().min(320).max(1920).default(screenshotDefaults.width).describe('Viewport width in CSS px; 320 to 1920 in a batch (the contract\'s range; 100 to 3840 elsewhere)'),
    height: z.number().int().min(240).max(1080).default(screenshotDefaults.height).describe('Viewport height in CSS px; 240 to 1080 in a batch (100 to 2160 elsewhere)'),
    full_page: z.boolean().default(false).describe('Whole page or the viewport; false by default in a batch (the contract\'s default; GET and the queue default to true)'),
    delay: z.number().int().min(0).max(10_000).default(0),
    block_ads: z.boolean().default(false),
    target_headers: targetHeadersBody.describe(
      'Request headers for protected pages (see GET /api/screenshot), sent to the one origin every URL of the batch is on: with target_headers, a batch spanning origins is refused, so a secret meant for a preview never reaches another site in the list.',
    ),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (!b.target_headers || !Object.keys(b.target_headers).length) return;
    const origins = new Set(b.urls.map((u) => originOf(u)));
    if (origins.size > 1) {
      ctx.addIssue({ code: 'custom', path: ['target_headers'], message: `target_headers go to one origin, and these urls are on ${origins.size}; send one batch per origin (the headers only with the protected one's)` });
    }
  });

const batchResult = z.object({
  results: z.array(
    z.object({
      url: z.string(),
      image: z.string().nullable().describe('Base64-encoded image; null when the render failed'),
      format: z.string(),
      width: z.number().int(),
      height: z.number().int(),
      target_status: z.number().int().nullable().describe('HTTP status of the page'),
      error: z.string().nullable(),
    }),
  ),
  total: z.number().int(),
  successful: z.number().int(),
  failed: z.number().int(),
});

export function screenshotRoutes(deps: AppDeps) {
  const render = (owner: RenderOwner, opts: ScreenshotOptions) => captureScreenshot(opts, screenshotDeps(deps, owner));

  return [
    defineRoute({
      api: 'screenshot',
      method: 'get',
      path: '/api/screenshot',
      summary: 'Capture a web page as PNG, JPEG, WebP or PDF',
      description:
        'Renders the page in Chromium. A target answering 4xx/5xx is still captured; its status is in `X-Target-Status`. 502 when the target is unreachable, 504 when it does not load in time.',
      key: 'optional',
      limit: 'screenshot',
      query: screenshotQuery,
      responses: {
        200: {
          description: 'The image or PDF; `X-Target-Status` carries the page\'s HTTP status',
          content: {
            'image/png': 'binary',
            'image/jpeg': 'binary',
            'image/webp': 'binary',
            'application/pdf': 'binary',
            'application/json': z.object({
              url: z.string(),
              image: z.string().describe('Base64-encoded image or PDF'),
              format: z.string(),
              width: z.number().int().describe('Viewport width in CSS px'),
              height: z.number().int().describe('Viewport height in CSS px'),
              target_status: z.number().int().nullable(),
            }),
          },
        },
        400: errorResponse('Invalid parameter, script error, missing element or refused target'),
        401: errorResponse('http_username/http_password without an API key'),
        429: errorResponse('Rate limit or rendering queue full'),
        502: errorResponse('Target unreachable'),
        504: errorResponse('Target timed out'),
      },
      async handler({ query: q, key, owner, res }) {
        if ((q.http_username || q.http_password) && !key) {
          throw new UnauthorizedError('http_username and http_password require an API key; create one with POST /api/keys');
        }
        if (!key && q.delay > 10_000) throw new BadInputError('delay must be at most 10000 without an API key (30000 with one)');
        const shot = await render(owner, {
          url: q.url,
          viewport: q.viewport,
          width: q.width,
          height: q.height,
          fullPage: q.full_page ?? (q.clip === undefined && q.selector === undefined),
          clip: q.clip,
          format: q.format,
          quality: q.quality,
          darkMode: q.dark_mode,
          scale: q.scale,
          selector: q.selector,
          delay: q.delay,
          blockAds: q.block_ads,
          js: q.js,
          waitFor: q.wait_for,
          auth: q.http_username || q.http_password ? { username: q.http_username ?? '', password: q.http_password ?? '' } : undefined,
          acceptLanguage: q.accept_language ?? q.lang,
          targetHeaders: scopeTargetHeaders(q.url, q.target_headers),
        });
        if (shot.targetStatus !== null) res.set('X-Target-Status', String(shot.targetStatus));
        res.set('Cache-Control', 'no-store');
        if (q.response_type === 'json') {
          const size = q.viewport ? viewportPresets[q.viewport] : { width: q.width, height: q.height };
          res.json({ url: q.url, image: shot.body.toString('base64'), format: q.format, width: size.width, height: size.height, target_status: shot.targetStatus });
          return;
        }
        res.type(shot.contentType).send(shot.body);
      },
    }),
    defineRoute({
      api: 'screenshot',
      method: 'post',
      path: '/api/screenshot/batch',
      summary: 'Capture up to 10 pages in one request',
      description:
        'Renders in parallel within the browser pool. A URL that fails gets an `error` and does not fail the batch. 2 batch requests per minute per key.',
      key: 'required',
      limit: 'batch',
      body: batchBody,
      responses: {
        200: { description: 'The batch result', content: { 'application/json': batchResult } },
        400: errorResponse('Invalid body'),
        401: errorResponse('Key missing or invalid'),
        429: errorResponse('More than 2 batch requests per minute'),
      },
      async handler({ body, owner, res }) {
        const results = await Promise.all(
          body.urls.map(async (url) => {
            const item = { url, format: body.format, width: body.width, height: body.height };
            try {
              const shot = await render(owner, {
                url,
                width: body.width,
                height: body.height,
                fullPage: body.full_page,
                format: body.format,
                quality: screenshotDefaults.quality,
                darkMode: false,
                delay: body.delay,
                blockAds: body.block_ads,
                targetHeaders: scopeTargetHeaders(url, body.target_headers),
              });
              return { ...item, image: shot.body.toString('base64'), target_status: shot.targetStatus, error: null };
            } catch (err) {
              const reply = httpReply(err);
              if (reply.internal) deps.log.error({ err }, 'batch item failed');
              return { ...item, image: null, target_status: null, error: reply.body.error };
            }
          }),
        );
        const successful = results.filter((r) => r.error === null).length;
        res.json({ results, total: results.length, successful, failed: results.length - successful });
      },
    }),
  ];
}
