
/**
 * Which limiter a route counts against.
 * - an analysis/render API name: keyless calls use that API's "No key" row; keyed calls
 *   count against the key's tier quota (per minute, per day, per 30-day period).
 * - `cheap`: usage, health, openapi, job status/result; generous per-IP limit, no quota.
 * - `keys` / `verify`: abuse limits on key creation and verification, per IP.
 */
export type LimitName =
  | 'deadlinks' | 'seo' | 'screenshot' | 'perf' | 'techstack' | 'html2image' | 'ssl' | 'audit' | 'charts' | 'batch' | 'queue' | 'compare'
  | 'cheap' | 'keys' | 'verify';

export interface Window { points: number; seconds: number }

/** Contract "Limits", column "No key", per client IP. */
export const keylessLimits: Partial<Record<LimitName, Window>> = {
  deadlinks: { points: 1, seconds: 30 * 60 },
  seo: { points: 1, seconds: 5 * 60 },
  screenshot: { points: 2, seconds: 60 },
  perf: { points: 2, seconds: 60 },
  techstack: { points: 1, seconds: 2 * 60 },
  html2image: { points: 2, seconds: 60 },
  ssl: { points: 5, seconds: 60 },
  audit: { points: 1, seconds: 2 * 60 },
};

/** Limits of the endpoints that do no work on targets; `cheap` comes from config. */
export const ipLimits: Partial<Record<LimitName, Window>> = {
  keys: { points: 10, seconds: 60 * 60 },
  verify: { points: 30, seconds: 60 * 60 },
};

/** Extra per-key limits on top of the tier quota (contract "Other limits"). */
export const perKeyExtra: Partial<Record<LimitName, Window>> = {
  batch: { points: 2, seconds: 60 },
};
