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
