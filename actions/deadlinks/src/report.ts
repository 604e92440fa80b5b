import type { z } from 'zod';
import type { deadlinkReport, linkItem } from '../../../server/api/routes/deadlinks-schemas.js';

/** The API's JSON report (GET /api/deadlinks?format=json), typed from the service's own schema. */
export type DeadlinkReport = z.infer<typeof deadlinkReport>;
export type LinkItem = z.infer<typeof linkItem>;

export interface Verdict {
  /** threshold or max_broken was given, so the API computed `pass`. */
  gated: boolean;
  /** The gate's pass, or, without a gate, no broken link. */
  pass: boolean;
  /** Whether the step fails (never with fail_on=never). */
  fail: boolean;
}

export function verdict(report: DeadlinkReport, failOn: 'gate' | 'never'): Verdict {
  const gated = report.pass !== undefined;
  const pass = report.pass ?? report.broken_count === 0;
  return { gated, pass, fail: failOn !== 'never' && !pass };
}

/** How a broken link failed, for people: `404`, `dns`, `timeout`. */
export const failure = (item: LinkItem) => (item.status !== null && item.kind.startsWith('http_') ? String(item.status) : item.kind);
