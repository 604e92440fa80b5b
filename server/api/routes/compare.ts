import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { NotFoundError, TierTooLowError } from '../../errors/index.js';
import { assertWebhookTarget } from '../../jobs/webhooks/webhook-target.js';
import type { CompareJob } from '../../jobs/compare-job.js';
import { assertJobTarget } from '../../jobs/job-queue.js';
import { secretSealer } from '../../jobs/sealed-secrets.js';
import { diffIdPattern, newDiffId } from '../../diff/diff-store.js';
import type { KeyRecord } from '../../keys/key-store.js';
import { perfTolerances } from '../../compare/perf-diff.js';
import { defineRoute, errorResponse } from '../route.js';
import { streamJobEvents } from './compare-events.js';
import { compareBody, compareStatus } from './compare-schemas.js';

const jobId = z.object({ job_id: z.string().min(1).max(100) });

/** A comparison counts one request per side and check. */
const comparisonCost = (body: { checks: readonly unknown[] }) => 2 * body.checks.length;

/** Comparisons are for paid tiers: each runs every check twice. */
function assertPaidTier(key: KeyRecord): void {
  if (key.tier === 'free') {
    throw new TierTooLowError('POST /api/compare needs a key of a paid tier (starter, pro or business); this key is free. Ask the service\'s operator to set a paid tier on it, then retry');
  }
}

const regressionRules = [
  'What counts as a regression (each item of `results[].items` has `regression`):',
  'links: a link broken on the preview and not on the baseline (matched by path on the same origin); links broken on both are `still_broken`, not regressions.',
  'seo: a check that passes on the baseline and fails on the preview (per path).',
  `perf: a lower grade; a response time over ${perfTolerances.response_time_ms.ratio}× and ${perfTolerances.response_time_ms.absolute} ms more; transfer bytes over ${perfTolerances.transfer_size_bytes.ratio}× and ${perfTolerances.transfer_size_bytes.absolute} bytes more; sub-resource requests over ${perfTolerances.requests.ratio}× and ${perfTolerances.requests.absolute} more.`,
  'techstack: a version that goes down; added, removed and upgraded technologies are changes to review, not regressions.',
  'tls: a lower grade, or a handshake that fails on the preview only.',
  'visual: a path × viewport whose changed-pixel ratio is over max_changed_ratio.',
  'Any check that works on the baseline and fails on the preview is a regression; one that fails on both is `unavailable`.',
].join('\n\n');

export function compareRoutes(deps: AppDeps) {
  const base = deps.config.baseUrl;
  const store = deps.compareJobs;

  /** The job's status record; `withWebhook: false` for the event stream, which sends no webhook state and reads the job twice a second. */
  const statusOf = async (job: CompareJob, withWebhook = true) => {
    const id = job.id ?? '';
    const read = await store.read(job);
    return {
      job_id: id,
      status: read.status,
      baseline_url: job.data.input.baseline_url,
      preview_url: job.data.input.preview_url,
      created_at: new Date(job.timestamp).toISOString(),
      completed_at: read.completedAt,
      progress: store.progress(job),
      report: read.result?.report ?? null,
      error: read.error,
      code: read.code,
      events_url: `${base}/api/compare/${id}/events`,
      webhook: withWebhook ? await deps.webhooks.field(job.data.webhook_url, id) : null,
    };
  };

  return [
    defineRoute({
      api: 'compare',
      method: 'post',
      path: '/api/compare',
      summary: 'Compare a preview deployment with production: what this change makes better or worse',
      description: [
        'Runs the chosen checks (dead links, SEO, performance, tech stack, TLS, screenshots of `paths`) on both deployments as one queued job and reports the differences, each marked as a regression or not, with a headline verdict and a health score per side.',
        'Needs a key of a paid tier (starter, pro or business; 402 for free, as every endpoint a tier does not include). Counts as one request per side and check in usage and quotas (all six checks: 12). Answers 202 with a job id at once; follow the job at `GET /api/compare/{job_id}` or as server-sent events at `GET /api/compare/{job_id}/events`. With `webhook_url`, the outcome `{job_id, status, report}` (or `{job_id, status: "failed", error, code}`) is POSTed there, signed per Standard Webhooks as for the screenshot queue; the status shows its delivery in `webhook`. Results are kept 24 hours; diff images and the trend picture 7 days.',
        'Health score per side: the mean of the 0–100 scores of the checks that scored both sides: links (dead-link health score, 100 × (1 − broken ÷ checked)), SEO (mean score of the paths), performance (mean score of the paths), TLS (A+ 100, A 95, B 80, C 60, F 0). The service keeps the last 20 runs per site (baseline_url) and key and draws them as `report.trend.image_url`.',
        regressionRules,
      ].join('\n\n'),
      key: 'required',
      limit: 'compare',
      keyCheck: assertPaidTier,
      cost: comparisonCost,
      body: compareBody,
      responses: {
        202: {
          description: 'Queued',
          content: {
            'application/json': z.object({
              job_id: z.string(),
              status: z.literal('queued'),
              message: z.string(),
              status_url: z.string(),
              events_url: z.string(),
              counted_requests: z.number().int().describe('Requests this comparison counts in usage and quotas: one per side and check'),
              trend_id: z.string(),
              trend_url: z.string().describe('The trend picture, once the comparison completes'),
            }),
          },
        },
        400: errorResponse('Invalid body, a refused target, or a webhook_url whose host does not resolve or is refused'),
        401: errorResponse('Missing or invalid key'),
        402: errorResponse('A free key: comparisons need a paid tier'),
        403: errorResponse('An inactive or suspended key'),
        429: errorResponse('Quota reached (a comparison counts one request per side and check)'),
      },
      async handler({ body, key, res }) {
        for (const url of [body.baseline_url, body.preview_url]) await assertJobTarget(deps.http.policy, url);
        if (body.webhook_url) await assertWebhookTarget(deps.http.policy, body.webhook_url);
        // target_headers never join the input: the input is echoed in the report and the status.
        const { webhook_url, target_headers: headers, ...input } = body;
        const sealed = headers && Object.keys(headers).length ? { sealed_headers: secretSealer(deps.config.JOB_SECRETS_KEY).seal(key.hash, headers) } : {};
        const trendId = newDiffId();
        const id = await store.enqueue({ input, owner: key.hash, trend_id: trendId, ...sealed, ...(webhook_url ? { webhook_url } : {}) });
        res.status(202).json({
          job_id: id,
          status: 'queued',
          message: `Comparison queued. Follow ${base}/api/compare/${id}${webhook_url ? ' or wait for the webhook' : ''}.`,
          status_url: `${base}/api/compare/${id}`,
          events_url: `${base}/api/compare/${id}/events`,
          counted_requests: comparisonCost(body),
          trend_id: trendId,
          trend_url: `${base}/api/compare/trend/${trendId}/image`,
        });
      },
    }),
    defineRoute({
      api: 'compare',
      method: 'get',
      path: '/api/compare/:job_id',
      summary: 'Status, progress and report of a comparison',
      key: 'required',
      params: jobId,
      responses: {
        200: { description: 'The job, with its report once completed', content: { 'application/json': compareStatus } },
        401: errorResponse('Missing or invalid key'),
        404: errorResponse('Unknown job (or another key\'s)'),
      },
      async handler({ params, key, res }) {
        res.json(await statusOf(await store.load(params.job_id, key.hash)));
      },
    }),
    defineRoute({
      api: 'compare',
      method: 'get',
      path: '/api/compare/:job_id/events',
      summary: 'A comparison\'s progress as server-sent events',
      description:
        'A stream of `progress` events (`{done, total, last}`) while the job runs, then one `report` event (the report) or one `error` event (`{error, code, status}`), after which the stream ends. A job already finished answers its last event at once.',
      key: 'required',
      params: jobId,
      responses: {
        200: { description: 'Server-sent events', content: { 'text/event-stream': 'text' } },
        401: errorResponse('Missing or invalid key'),
        404: errorResponse('Unknown job (or another key\'s)'),
      },
      async handler({ params, key, res }) {
        await streamJobEvents(await store.load(params.job_id, key.hash), res, (job) => statusOf(job, false), (id) => store.find(id, key.hash));
      },
    }),
    defineRoute({
      api: 'compare',
      method: 'get',
      path: '/api/compare/trend/:trend_id/image',
      summary: 'Trend picture of a site\'s health score',
      description: 'PNG of the health score of both sides over the site\'s last runs (for this key), drawn by the chart renderer when the comparison completes (404 before). No key: the id (`trend_id` of the 202 reply) is 128 random bits. Kept 7 days.',
      key: 'none',
      params: z.object({ trend_id: z.string().regex(diffIdPattern, 'must be a trend picture id') }),
      responses: {
        200: { description: 'The PNG', content: { 'image/png': 'binary' } },
        400: errorResponse('Malformed id'),
        404: errorResponse('Unknown or expired picture'),
      },
      async handler({ params, res }) {
        const png = await store.loadTrend(params.trend_id);
        if (!png) throw new NotFoundError(`trend picture ${params.trend_id} is unknown yet or any more (drawn when the comparison completes, kept 7 days)`);
        res.set('Cache-Control', 'public, max-age=86400, immutable').type('image/png').send(png);
      },
    }),
  ];
}
