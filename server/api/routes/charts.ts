import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { badRequest } from '../errors.js';
import { defineRoute, errorResponse } from '../route.js';

export const chartTypes = ['bar', 'line', 'pie', 'doughnut', 'radar', 'scatter', 'bubble', 'polarArea'] as const;

const chartBody = z
  .object({
    type: z.enum(chartTypes),
    data: z
      .object({
        labels: z.array(z.unknown()).optional(),
        datasets: z.array(z.object({}).loose()).min(1).max(100),
      })
      .loose()
      .describe('Chart.js data object: `labels` and `datasets`'),
    options: z.object({}).loose().default({}).describe('Chart.js options; plain data (functions are not supported and nothing in it is evaluated)'),
    width: z.number().int().min(100).max(2400).default(800),
    height: z.number().int().min(100).max(1600).default(450),
    format: z.enum(['png', 'jpeg']).default('png'),
    quality: z.number().int().min(1).max(100).default(90).describe('JPEG quality; ignored for PNG'),
    background: z.string().min(1).max(100).default('#ffffff').describe('CSS colour, or `transparent` (PNG only)'),
  })
  .strict();

export function chartRoutes(deps: AppDeps) {
  return [
    defineRoute({
      api: 'charts',
      method: 'post',
      path: '/api/charts/render',
      summary: 'Render a Chart.js configuration to PNG or JPEG',
      description:
        'Chart.js 4 drawn on a native canvas (no browser) in worker threads. The configuration is data: option values that would be functions in JavaScript are not evaluated. A configuration Chart.js rejects gives 400 with its reason.',
      key: 'required',
      limit: 'charts',
      body: chartBody,
      responses: {
        200: { description: 'The chart', content: { 'image/png': 'binary', 'image/jpeg': 'binary' } },
        400: errorResponse('Invalid chart configuration'),
        401: errorResponse('Key missing or invalid'),
        429: errorResponse('Rate limit exceeded'),
      },
      async handler({ body, res }) {
        if (body.background.toLowerCase() === 'transparent' && body.format === 'jpeg') {
          throw badRequest('background transparent is only possible with format png (JPEG has no alpha channel)');
        }
        const image = await deps.charts.render({
          type: body.type,
          data: body.data,
          options: body.options,
          width: body.width,
          height: body.height,
          format: body.format,
          quality: body.quality,
          background: body.background.toLowerCase() === 'transparent' ? 'transparent' : body.background,
        });
        res.set('Cache-Control', 'no-store').type(body.format === 'png' ? 'image/png' : 'image/jpeg').send(image);
      },
    }),
  ];
}
