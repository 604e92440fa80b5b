import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { BadInputError } from '../../errors/index.js';
import { defineRoute, errorResponse } from '../route.js';
import { findV2Options, v2HorizontalBar } from '../../charts/chart-v2-options.js';

export const chartTypes = ['bar', 'line', 'pie', 'doughnut', 'radar', 'scatter', 'bubble', 'polarArea'] as const;

const chartBody = z
  .object({
    type: z.enum(chartTypes, {
      error: (i) => (i.input === v2HorizontalBar.type ? `horizontalBar is a Chart.js v2 type, use ${v2HorizontalBar.use} instead` : undefined),
    }),
    data: z
      .object({
        labels: z.array(z.unknown()).optional(),
        datasets: z.array(z.object({}).loose()).min(1).max(100),
      })
      .loose()
      .describe('Chart.js data object: `labels` and `datasets`'),
    options: z
      .object({})
      .loose()
      .default({})
      .describe('Chart.js 4 options; plain data (functions are not supported and nothing in it is evaluated). Time axes (`scales.x.type` `time` or `timeseries`) work: dates are parsed by date-fns. Chart.js v2 names (`scales.xAxes`, `legend` or `tooltips` at the top of options, `gridLines`, `ticks.beginAtZero`, …) answer 400 naming the Chart.js 4 option to use.'),
    width: z.number().int().min(100).max(2400).default(800),
    height: z.number().int().min(100).max(1600).default(450),
    format: z.enum(['png', 'jpeg']).default('png'),
    quality: z.number().int().min(1).max(100).default(90).describe('JPEG quality; ignored for PNG'),
    background: z.string().min(1).max(100).default('#ffffff').describe('CSS colour, or `transparent` (PNG only)'),
  })
  .strict()
  .superRefine((body, ctx) => {
    for (const v2 of findV2Options(body)) ctx.addIssue({ code: 'custom', path: v2.path, message: `is a Chart.js v2 option, use ${v2.use} instead` });
  })
  .meta({
    example: {
      type: 'line',
      data: {
        labels: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'],
        datasets: [{ label: 'Visits', data: [120, 190, 170, 240, 210], borderColor: '#4363d8', backgroundColor: '#4363d8' }],
      },
      options: { plugins: { title: { display: true, text: 'Visits this week' } }, scales: { y: { beginAtZero: true } } },
      width: 800,
      height: 450,
    },
  });

export function chartRoutes(deps: AppDeps) {
  return [
    defineRoute({
      api: 'charts',
      method: 'post',
      path: '/api/charts/render',
      summary: 'Render a Chart.js configuration to PNG or JPEG',
      description:
        'Chart.js 4 drawn on a native canvas (no browser) in worker threads, with the date-fns adapter for time axes. The configuration is data: option values that would be functions in JavaScript are not evaluated. A configuration Chart.js rejects gives 400 with its reason; Chart.js v2 option names give 400 naming the Chart.js 4 option to use.',
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
          throw new BadInputError('background transparent is only possible with format png (JPEG has no alpha channel)');
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
