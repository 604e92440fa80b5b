import { BadInputError, TargetRefusedError } from '../../errors/index.js';
import { innermostMessage, netErrorKind } from '../../net/safe-http.js';
import type { TargetPolicy } from '../../net/target-policy.js';

/**
 * Checks a webhook receiver at submission, as its delivery will: an allowed http(s) URL
 * whose host resolves to allowed addresses. A refused or unresolvable receiver is the
 * caller's to fix (400), not a failure to find out hours later.
 */
export async function assertWebhookTarget(policy: TargetPolicy, url: string): Promise<void> {
  try {
    await policy.assertResolvable(url);
  } catch (err) {
    if (err instanceof TargetRefusedError) throw new TargetRefusedError(`webhook_url: ${err.message}`);
    const host = new URL(url).hostname;
    const why = netErrorKind(err) === 'dns' ? 'does not resolve' : `could not be resolved (${innermostMessage(err)})`;
    throw new BadInputError(`webhook_url: the host ${host} ${why}; give a public receiver the service can reach`);
  }
}
