import { z } from 'zod';
import { webhookDelivery } from './webhook-schema.js';
import { compareChecks } from '../../compare/types.js';
import { DEFAULT_MAX_CHANGED_RATIO } from '../../compare/visual-diff.js';
import { siteCheckDefaults } from '../../links/site-check.js';
import { qUrl } from '../route.js';
import { targetHeadersBody } from '../../net/target-headers.js';

/** Paths compared per request: each costs a page load per side and check. */
export const MAX_COMPARE_PATHS = 10;

export const compareBody = z
  .object({
    baseline_url: qUrl().describe('The reference deployment (production), an origin optionally with a base path'),
    preview_url: qUrl().describe('The deployment compared with it (a pull request\'s preview)'),
    paths: z
      .array(z.string().trim().max(500).regex(/^\/(?!\/)/, 'must be a path starting with a single /'))
      .min(1)
      .max(MAX_COMPARE_PATHS)
      .default(['/'])
      .describe(`Paths compared on both deployments (SEO, performance, screenshots), at most ${MAX_COMPARE_PATHS}`),
    checks: z
      .array(z.enum(compareChecks))
      .min(1)
      .refine((cs) => new Set(cs).size === cs.length, 'must not repeat a check')
      .default([...compareChecks])
      .describe(`Checks to run: links (crawl from the root as GET /api/deadlinks does by default: up to ${siteCheckDefaults.maxPages} pages rendered in Chromium), seo, perf, techstack (the root page), tls (https only), visual; default all`),
    viewports: z
      .array(z.object({ width: z.number().int().min(320).max(1920), height: z.number().int().min(240).max(1080) }).strict())
      .min(1)
      .max(3)
      .default([{ width: 1280, height: 720 }])
      .describe('Viewports of the visual check (full-page captures)'),
    max_changed_ratio: z
      .number()
      .min(0)
      .max(1)
      .default(DEFAULT_MAX_CHANGED_RATIO)
      .describe('Visual gate: a path × viewport with a larger share of changed pixels is a regression'),
    webhook_url: z.url({ protocol: /^https?$/ }).optional().describe('Receives the outcome, signed per Standard Webhooks, once the job finishes'),
    target_headers: targetHeadersBody.describe(
      'Request headers for a protected preview (Vercel\'s `x-vercel-protection-bypass`, an `Authorization` header): sent to `preview_url`\'s origin only (scheme, host and port) by the links, SEO, performance, tech-stack and visual checks, never to production, external links, third-party subresources or a redirect off the origin. Kept encrypted with the service\'s `JOB_SECRETS_KEY` while the job waits (400 when the service has none); never in the report, status or webhook. At most 10 headers; hop-by-hop headers, `Host` and `Content-Length` are refused.',
    ),
  })
  .strict()
  .meta({ example: { baseline_url: 'https://example.com', preview_url: 'https://example.com', paths: ['/'], checks: ['links', 'seo'] } });

const item = z
  .object({ regression: z.boolean().describe('Whether this makes the preview worse than the baseline') })
  .loose()
  .describe('One difference; its fields depend on the check (see the description of the operation)');

const checkDiff = z.object({
  check: z.enum(compareChecks),
  status: z.enum(['regressed', 'changed', 'improved', 'unchanged', 'unavailable']),
  baseline: z.string().describe('The baseline in a few words'),
  preview: z.string(),
  change: z.string().describe('What changed in a few words; empty when nothing did'),
  regressions: z.number().int(),
  improvements: z.number().int(),
  scores: z.object({ baseline: z.number().nullable(), preview: z.number().nullable() }).describe('0–100 where the check scores a side'),
  items: z.array(item),
  notes: z.array(z.string()),
});

export const compareReport = z.object({
  baseline_url: z.string(),
  preview_url: z.string(),
  paths: z.array(z.string()),
  checks: z.array(z.enum(compareChecks)),
  viewports: z.array(z.object({ width: z.number().int(), height: z.number().int() })),
  max_changed_ratio: z.number(),
  verdict: z.enum(['regressed', 'changed', 'improved', 'unchanged']),
  headline: z.string(),
  regressions: z.number().int(),
  improvements: z.number().int(),
  health: z
    .object({ baseline: z.number().nullable(), preview: z.number().nullable(), delta: z.number().nullable() })
    .describe('Mean of the scores of the checks that scored both sides (links, SEO, performance, TLS), 0–100'),
  results: z.array(checkDiff),
  trend: z.object({
    image_url: z.string().nullable().describe('PNG of the health score over the last runs for this site and key; no key needed, kept 7 days'),
    runs: z.array(z.object({ at: z.string(), baseline: z.number().nullable(), preview: z.number().nullable() })),
  }),
  started_at: z.string(),
  completed_at: z.string(),
});

export const compareProgress = z.object({
  done: z.number().int(),
  total: z.number().int(),
  last: z.string().nullable().describe('The task that finished last, e.g. `SEO on preview /pricing`'),
});

export const compareStatus = z.object({
  job_id: z.string(),
  status: z.enum(['queued', 'processing', 'completed', 'failed']),
  baseline_url: z.string(),
  preview_url: z.string(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  progress: compareProgress.nullable().describe('Null until a worker starts the job'),
  report: compareReport.nullable().describe('Set when status is completed'),
  error: z.string().nullable().describe('Why the job failed'),
  code: z.string().nullable().describe('The failure\'s stable code (`blocked_target`, …)'),
  events_url: z.string(),
  webhook: webhookDelivery,
});
