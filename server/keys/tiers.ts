export const tierNames = ['free', 'starter', 'pro', 'business'] as const;
export type Tier = (typeof tierNames)[number];
export const keyStatuses = ['active', 'inactive', 'suspended'] as const;
export type KeyStatus = (typeof keyStatuses)[number];

/** DESIGN.md "Settled points": daily and per-minute quotas by tier. */
export const tierQuotas: Record<Tier, { perMinute: number; perDay: number }> = {
  free: { perMinute: 5, perDay: 50 },
  starter: { perMinute: 15, perDay: 200 },
  pro: { perMinute: 30, perDay: 1000 },
  business: { perMinute: 60, perDay: 5000 },
};

/** An anonymous (unverified) free key gets 20 a day; a verified free key 50. */
export function dailyLimit(tier: Tier, verified: boolean): number {
  return tier === 'free' && !verified ? 20 : tierQuotas[tier].perDay;
}

export const PERIOD_DAYS = 30;

/**
 * How a key gets more of a quota, for the 429 message: the tiers above it with their figure
 * (a paid tier is set by the operator), or email verification for an anonymous free key.
 */
export function moreQuotaHint(tier: Tier, verified: boolean, window: 'perMinute' | 'perDay'): string {
  const unit = window === 'perMinute' ? 'a minute' : 'a day';
  const above = tierNames.slice(tierNames.indexOf(tier) + 1);
  const tiers = above.map((t) => `${t} ${tierQuotas[t][window]}`).join(', ');
  if (window === 'perDay' && tier === 'free' && !verified) {
    return `verify an email key for 50 ${unit}, or ask for a paid tier (${tiers} ${unit})`;
  }
  if (!above.length) return 'business is the highest tier; ask the operator if you need more';
  return `ask for a paid tier for more (${tiers} ${unit})`;
}
