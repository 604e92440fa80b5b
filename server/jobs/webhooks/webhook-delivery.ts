import { Webhook } from 'standardwebhooks';
import type { SafeHttp } from '../../net/safe-http.js';
import { innermostMessage } from '../../net/safe-http.js';

export interface DeliveryOutcome {
  status: number | null;
  error: string | null;
}

/**
 * POSTs `body` to `url`, signed per Standard Webhooks: `webhook-id` stays the same across
 * retries (receivers deduplicate on it), `webhook-timestamp` is the attempt's time.
 */
export async function deliverWebhook(
  opts: { url: string; messageId: string; secret: string; body: string; timeoutMs: number },
  deps: { http: SafeHttp },
): Promise<DeliveryOutcome> {
  const sentAt = new Date();
  const signature = new Webhook(opts.secret).sign(opts.messageId, sentAt, opts.body);
  try {
    const res = await deps.http.fetch(opts.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'SiteLens-Webhooks/1.0',
        'webhook-id': opts.messageId,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body: opts.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
    await res.body?.cancel();
    return { status: res.status, error: res.ok ? null : `the receiver answered ${res.status}` };
  } catch (err) {
    return { status: null, error: innermostMessage(err) };
  }
}
