import type { NetErrorKind } from '../net/safe-http.js';

// Types and a guard only: the actions' bundles read reports with it (`settle`, in from-net.ts, needs the network client).

/**
 * One check among several (an audit's parts, a comparison's two sides) that could not run:
 * why, as a sentence and a stable kind, reported in the check's place so the others still count.
 */
export interface PartFailure {
  error: string;
  /** How the target failed (`dns`, `timeout`, …), `unavailable` for the service's own refusal, or a check's own kind. */
  kind: NetErrorKind | 'unavailable' | (string & {});
}

/** A check's report, or why there is none. */
export type Part<T> = T | PartFailure;

export const isFailure = (p: unknown): p is PartFailure => typeof p === 'object' && p !== null && 'error' in p && 'kind' in p;
