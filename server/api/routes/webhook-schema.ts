import { z } from 'zod';

/** A queued job's webhook delivery as its status shows it (screenshot queue and comparisons alike). */
export const webhookDelivery = z
  .object({
    url: z.string(),
    state: z
      .enum(['scheduled', 'retrying', 'delivered', 'failed'])
      .nullable()
      .describe('null until the job finishes; `failed` after the last attempt (or a 410 Gone)'),
    delivered: z.boolean(),
    last_status: z.number().int().nullable().describe("The receiver's status on the last attempt; null when it could not be reached"),
    last_error: z.string().nullable(),
    next_attempt_at: z.string().nullable().describe('When the next retry runs, at the latest (ISO 8601)'),
    attempts: z.array(z.object({ attempt: z.number().int(), at: z.string(), status: z.number().int().nullable(), error: z.string().nullable() })),
  })
  .nullable()
  .describe('Delivery of the webhook, when the job has a webhook_url');
