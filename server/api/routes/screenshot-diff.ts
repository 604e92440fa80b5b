import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { NotFoundError } from '../../errors/index.js';
import { defineRoute, qUrl, errorResponse } from '../route.js';
import { screenshotDiff } from '../../diff/screenshot-diff.js';
import { screenshotDeps } from '../../render/screenshot.js';
import { scopeTargetHeaders, targetHeadersBody } from '../../net/target-headers.js';
import { diffIdPattern, diffImageNames, newDiffId } from '../../diff/diff-store.js';


const diffBody = z
  .object({
    baseline_url: qUrl().describe('The reference page (e.g. production)'),
    candidate_url: qUrl().describe('The page compared with it (e.g. a preview deployment)'),
    width: z.number().int().min(320).max(1920).default(1280).describe('Viewport width in CSS px'),
    height: z.number().int().min(240).max(1080).default(720).describe('Viewport height in CSS px'),
    full_page: z.boolean().default(true).describe('Whole page or the viewport only'),
    threshold: z.number().min(0).max(1).default(0.1).describe('pixelmatch colour threshold: 0 counts any colour difference, 1 almost none'),
    delay: z.number().int().min(0).max(10_000).default(0).describe('ms to wait before each capture'),
    block_ads: z.boolean().default(false).describe('Blocks ads and trackers and opts out of cookie dialogs'),
    hide_selectors: z
      .array(z.string().trim().min(1).max(500))
      .max(50)
      .default([])
      .describe('CSS selectors hidden (visibility: hidden) before capture: clocks, carousels, ads'),
    target_headers: targetHeadersBody.describe('Request headers for a protected candidate (a preview behind Vercel\'s protection, a password): sent to `candidate_url`\'s origin only (scheme, host and port), by both captures, never to other hosts, redirects off it or third-party subresources. At most 10 headers, names HTTP tokens, values up to 4096 characters without line breaks; hop-by-hop headers, `Host` and `Content-Length` are refused. Never logged or echoed.'),
  })
  .strict();

const diffResult = z.object({
  id: z.string(),
  changed_pixels: z.number().int().describe('Differing pixels; when the sizes differ, the padding counts as changed'),
  changed_ratio: z.number().describe('changed_pixels ÷ (width × height), 0 to 1, 6 decimals'),
  width: z.number().int().describe('Compared width in px: the larger of the two captures'),
  height: z.number().int().describe('Compared height in px: the larger of the two captures'),
  baseline_status: z.number().int().nullable().describe('HTTP status of the baseline page'),
  candidate_status: z.number().int().nullable().describe('HTTP status of the candidate page'),
  images: z.object({ baseline: z.string(), candidate: z.string(), diff: z.string() }).describe('PNG URLs, no key needed, kept 7 days'),
  expires_at: z.string().describe('ISO 8601 time the images are deleted'),
});

export function screenshotDiffRoutes(deps: AppDeps) {
  const c = deps.config;
  const store = deps.diffs;
  const imageUrl = (id: string, image: string) => `${c.baseUrl}/api/screenshot/diff/${id}/${image}`;

  return [
    defineRoute({
      api: 'screenshot',
      method: 'post',
      path: '/api/screenshot/diff',
      summary: 'Compare two pages pixel by pixel (visual regression)',
      description:
        'Renders `baseline_url` and `candidate_url` at the same viewport and compares them with pixelmatch. Sizes that differ are padded to the larger one, the padding counting as changed. The baseline, candidate and diff PNGs (changes in red) are kept 7 days behind unguessable URLs that need no key, so PR comments can show them.',
      key: 'required',
      limit: 'screenshot',
      body: diffBody,
      responses: {
        200: { description: 'The comparison', content: { 'application/json': diffResult } },
        400: errorResponse('Invalid body, invalid hide_selectors entry or refused target'),
        401: errorResponse('Key missing or invalid'),
        429: errorResponse('Rate limit or rendering queue full'),
        502: errorResponse('A target unreachable (the message names baseline_url or candidate_url)'),
        504: errorResponse('A target timed out'),
      },
      async handler({ body, owner, res }) {
        const result = await screenshotDiff(
          {
            baselineUrl: body.baseline_url,
            candidateUrl: body.candidate_url,
            width: body.width,
            height: body.height,
            fullPage: body.full_page,
            threshold: body.threshold,
            delay: body.delay,
            blockAds: body.block_ads,
            hideSelectors: body.hide_selectors,
            targetHeaders: scopeTargetHeaders(body.candidate_url, body.target_headers),
          },
          screenshotDeps(deps, owner),
        );
        const id = newDiffId();
        await store.save(id, result.images);
        res.json({
          id,
          changed_pixels: result.changedPixels,
          changed_ratio: result.changedRatio,
          width: result.width,
          height: result.height,
          baseline_status: result.baselineStatus,
          candidate_status: result.candidateStatus,
          images: { baseline: imageUrl(id, 'baseline'), candidate: imageUrl(id, 'candidate'), diff: imageUrl(id, 'diff') },
          expires_at: new Date(Date.now() + store.ttlSeconds * 1000).toISOString(),
        });
      },
    }),
    defineRoute({
      api: 'screenshot',
      method: 'get',
      path: '/api/screenshot/diff/:id/:image',
      summary: 'One image of a screenshot diff',
      description: 'PNG of the baseline, the candidate or the diff. No key: the id is 128 random bits. 404 after 7 days.',
      key: 'none',
      params: z.object({
        id: z.string().regex(diffIdPattern, 'must be a diff id'),
        image: z.enum(diffImageNames),
      }),
      responses: {
        200: { description: 'The PNG', content: { 'image/png': 'binary' } },
        400: errorResponse('Malformed id or image name'),
        404: errorResponse('Unknown or expired diff'),
      },
      async handler({ params, res }) {
        const png = await store.load(params.id, params.image);
        if (!png) throw new NotFoundError(`diff ${params.id} is unknown (images are kept 7 days)`);
        res.set('Cache-Control', 'public, max-age=86400, immutable').type('image/png').send(png);
      },
    }),
  ];
}
