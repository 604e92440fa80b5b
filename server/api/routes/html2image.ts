import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { BadInputError } from '../../errors/index.js';
import { defineRoute, qBool, qInt, errorResponse } from '../route.js';
import { htmlToImage } from '../../render/html-to-image.js';
import { contentTypes } from '../../render/screenshot.js';

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

export function html2imageRoutes(deps: AppDeps) {
  return [
    defineRoute({
      api: 'html2image',
      method: 'post',
      path: '/api/html2image',
      summary: 'Render posted HTML/CSS to PNG, JPEG or WebP',
      description:
        'The body is raw HTML (`Content-Type: text/html`, at most 50 KB). It may load web fonts and images from public URLs; nothing from the machine (`file:`) or private addresses. Fonts and images are waited for before capture.',
      key: 'optional',
      limit: 'html2image',
      rawBody: { type: 'text/html', maxBytes: 50 * 1024 },
      query: z.object({
        width: qInt(1, 1920).default(800).describe('Viewport width in CSS px'),
        height: qInt(1, 1080).default(600).describe('Viewport height in CSS px'),
        format: z.preprocess(emptyToUndefined, z.enum(['png', 'jpeg', 'webp']).default('png')),
        scale: z
          .preprocess(emptyToUndefined, z.enum(['1', '2', '3']).default('1'))
          .transform((v) => Number(v) as 1 | 2 | 3)
          .describe('Device scale factor'),
        quality: qInt(1, 100).default(80).describe('JPEG and WebP quality'),
        dark_mode: qBool(false).describe('Emulates prefers-color-scheme: dark'),
        key: z.string().optional(),
      }),
      responses: {
        200: { description: 'The image', content: { 'image/png': 'binary', 'image/jpeg': 'binary', 'image/webp': 'binary' } },
        400: errorResponse('Invalid parameter or empty body'),
        413: errorResponse('Body larger than 50 KB'),
        415: errorResponse('Content-Type is not text/html'),
        429: errorResponse('Rate limit exceeded'),
      },
      async handler({ query: q, body, owner, res }) {
        const html = typeof body === 'string' ? body : '';
        if (!html.trim()) throw new BadInputError('the request body must be the HTML to render (Content-Type: text/html)');
        const image = await htmlToImage(
          { html, width: q.width, height: q.height, format: q.format, scale: q.scale, quality: q.quality, darkMode: q.dark_mode },
          { pool: deps.browser.as(owner), policy: deps.http.policy, loadTimeoutMs: deps.config.FETCH_TIMEOUT_MS },
        );
        res.set('Cache-Control', 'no-store').type(contentTypes[q.format]).send(image);
      },
    }),
  ];
}
