import { z } from 'zod';
import { targetHeadersBody } from '../../net/target-headers.js';
import { secretSealer } from '../../jobs/sealed-secrets.js';
import type { AppDeps } from '../deps.js';
import { JobFailedError, TierTooLowError } from '../../errors/index.js';
import { assertJobTarget } from '../../jobs/job-queue.js';
import { assertWebhookTarget } from '../../jobs/webhooks/webhook-target.js';
import { screenshotDefaults, viewportRange } from '../../render/screenshot.js';
import { defineRoute, qUrl, errorResponse } from '../route.js';
import { webhookDelivery } from './webhook-schema.js';
import type { KeyRecord } from '../../keys/key-store.js';

const jobId = z.object({ job_id: z.string().min(1).max(100) });
const statuses = ['queued', 'processing', 'completed', 'failed'] as const;

const statusRecord = z.object({
  job_id: z.string(),
  status: z.enum(statuses),
  url: z.string(),
  created_at: z.string().describe('ISO 8601'),
  completed_at: z.string().nullable(),
  result_url: z.string().nullable().describe('Set when status is completed'),
  error: z.string().nullable().describe('Why the job failed, after its retries'),
  code: z.string().nullable().describe('The failure\'s stable code (`target_unreachable`, `target_timeout`, `blocked_target`, …); null unless failed'),
  attempts: z.number().int(),
  webhook: webhookDelivery,
});

const resultRecord = z.object({
  job_id: z.string(),
  url: z.string(),
  image: z.string().describe('Base64-encoded image'),
  format: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});

/** Pro or business, and verified (DESIGN.md "Queue"). */
function assertQueueTier(key: KeyRecord) {
  if (!['pro', 'business'].includes(key.tier) || !key.verified) {
    throw new TierTooLowError(`the screenshot queue needs a verified key of tier pro or business; this key is ${key.tier}. Ask the operator for a paid tier, or use GET /api/screenshot`);
  }
}

export function screenshotQueueRoutes(deps: AppDeps) {
  const base = deps.config.baseUrl;
  const store = deps.screenshotJobs;

  return [
    defineRoute({
      api: 'screenshot',
      method: 'post',
      path: '/api/screenshot/queue',
      summary: 'Queue a screenshot; poll its status or receive it on a webhook',
      description:
        'Needs a verified key of tier pro or business (402 otherwise). Answers 202 with a job id at once. Job states: queued → processing → completed | failed (after 3 attempts). Results are kept 24 hours. With `webhook_url` (its host must resolve to a public address, else 400), the result body is POSTed there once the job completes, or `{job_id, url, status: "failed", error, code}` once it failed, signed per Standard Webhooks (`webhook-id`, the same on every attempt so receivers can drop duplicates; `webhook-timestamp`; `webhook-signature`: HMAC-SHA256 with the `webhook_secret` shown at key creation). Any 2xx answer counts as delivered; other answers and timeouts are retried with exponential backoff and jitter, a 410 stops the retries. The delivery is its own job, scheduled before the screenshot job completes, so a worker that dies loses nothing; its state, last status and every attempt are in the job status.',
      key: 'required',
      limit: 'queue',
      keyCheck: assertQueueTier,
      body: z
        .object({
          url: qUrl(),
          format: z.enum(['webp', 'png', 'jpeg']).default('webp').describe('Image format; WebP by default in the queue (the contract\'s default; png elsewhere)'),
          width: z.number().int().min(viewportRange.width.min).max(viewportRange.width.max).default(screenshotDefaults.width).describe('Viewport width in CSS px, as for GET /api/screenshot'),
          height: z.number().int().min(viewportRange.height.min).max(viewportRange.height.max).default(screenshotDefaults.height).describe('Viewport height in CSS px, as for GET /api/screenshot'),
          full_page: z.boolean().default(screenshotDefaults.fullPage).describe('Whole page (default, as for GET /api/screenshot) or the viewport only'),
          webhook_url: z.url({ protocol: /^https?$/ }).optional(),
          target_headers: targetHeadersBody.describe('Request headers for a protected page, sent to `url`\'s origin only (see GET /api/screenshot). Kept encrypted with the service\'s `JOB_SECRETS_KEY` while the job waits (400 when the service has none); never in the status, result or webhook.'),
        })
        .strict(),
      responses: {
        202: { description: 'Queued', content: { 'application/json': z.object({ job_id: z.string(), status: z.literal('queued'), message: z.string(), status_url: z.string() }) } },
        400: errorResponse('Invalid body, a refused target, or a webhook_url whose host does not resolve or is refused'),
        401: errorResponse('Missing or invalid key'),
        402: errorResponse('Tier below pro'),
      },
      async handler({ body, key, res }) {
        await assertJobTarget(deps.http.policy, body.url);
        if (body.webhook_url) await assertWebhookTarget(deps.http.policy, body.webhook_url);
        const { target_headers: headers, ...job } = body;
        const sealed = headers && Object.keys(headers).length ? { sealed_headers: secretSealer(deps.config.JOB_SECRETS_KEY).seal(key.hash, headers) } : {};
        const id = await store.enqueue({ ...job, ...sealed, owner: key.hash });
        res.status(202).json({
          job_id: id,
          status: 'queued',
          message: `Screenshot queued. Poll ${base}/api/screenshot/status/${id}${body.webhook_url ? ' or wait for the webhook' : ''}.`,
          status_url: `${base}/api/screenshot/status/${id}`,
        });
      },
    }),
    defineRoute({
      api: 'screenshot',
      method: 'get',
      path: '/api/screenshot/status/:job_id',
      summary: 'Status of a queued screenshot',
      key: 'required',
      params: jobId,
      responses: {
        200: { description: 'Job status', content: { 'application/json': statusRecord } },
        401: errorResponse('Missing or invalid key'),
        404: errorResponse('Unknown job (or another key\'s)'),
      },
      async handler({ params, key, res }) {
        const job = await store.load(params.job_id, key.hash);
        const read = await store.read(job);
        res.json({
          job_id: params.job_id,
          status: read.status,
          url: job.data.url,
          created_at: new Date(job.timestamp).toISOString(),
          completed_at: read.completedAt,
          result_url: read.status === 'completed' ? `${base}/api/screenshot/result/${params.job_id}` : null,
          error: read.error,
          code: read.code,
          attempts: job.attemptsMade,
          webhook: await deps.webhooks.field(job.data.webhook_url, params.job_id),
        });
      },
    }),
    defineRoute({
      api: 'screenshot',
      method: 'get',
      path: '/api/screenshot/result/:job_id',
      summary: 'Result of a queued screenshot',
      description: '202 while the job is queued or processing; the result (base64 image) once completed.',
      key: 'required',
      params: jobId,
      responses: {
        200: { description: 'The result', content: { 'application/json': resultRecord } },
        202: { description: 'Not finished yet', content: { 'application/json': z.object({ job_id: z.string(), status: z.enum(statuses), message: z.string() }) } },
        404: errorResponse('Unknown job'),
        422: errorResponse('The job failed'),
      },
      async handler({ params, key, res }) {
        const read = await store.read(await store.load(params.job_id, key.hash));
        if (read.result) {
          res.json(read.result);
        } else if (read.status === 'failed') {
          throw new JobFailedError(`the job failed: ${read.error}`);
        } else {
          res.status(202).json({ job_id: params.job_id, status: read.status, message: 'The screenshot is not ready yet; try again shortly.' });
        }
      },
    }),
  ];
}
