import type { DeadLinkReport, LinkItem } from '../links/report.js';
import { checkRow, failedRow } from './check-row.js';
import type { CheckDiff, LinkItemDiff, Part } from './types.js';

/**
 * Broken links by URL on both sides: new on the preview (a regression), fixed, or still
 * broken (production's problem already, not this change's). Links are matched by their path
 * and query, so the same link on two origins (`/pricing` on production and on the preview)
 * is one link.
 */
export function diffLinks(baseline: Part<DeadLinkReport>, preview: Part<DeadLinkReport>, origins: { baseline: string; preview: string }): CheckDiff {
  const failed = failedRow('links', baseline, preview);
  if (failed) return failed;
  const b = baseline as DeadLinkReport;
  const p = preview as DeadLinkReport;
  const before = new Map(b.broken_links.map((l) => [sameSite(l.url, origins.baseline), l]));
  const after = new Map(p.broken_links.map((l) => [sameSite(l.url, origins.preview), l]));
  const items: LinkItemDiff[] = [];
  for (const [k, l] of after) items.push(item(before.has(k) ? 'still_broken' : 'new_broken', l, !before.has(k)));
  for (const [k, l] of before) if (!after.has(k)) items.push(item('fixed', l, false));
  const describe = (r: DeadLinkReport) => `${r.broken_count} broken of ${r.total_links_checked}`;
  const added = items.filter((i) => i.kind === 'new_broken').length;
  const fixed = items.filter((i) => i.kind === 'fixed').length;
  return checkRow(
    'links',
    {
      baseline: describe(b),
      preview: describe(p),
      change: [added ? `${added} new broken` : '', fixed ? `${fixed} fixed` : ''].filter(Boolean).join(', '),
      scores: { baseline: b.summary.health_score, preview: p.summary.health_score },
      items,
    },
    (i) => i.kind === 'fixed',
  );
}

function item(kind: LinkItemDiff['kind'], l: LinkItem, regression: boolean): LinkItemDiff {
  return { kind, url: l.url, status: l.status, error_kind: l.kind, found_on: l.found_on, regression };
}

/** A link on the side's own origin as its path (so both sides compare); any other as it is. */
function sameSite(url: string, origin: string): string {
  try {
    const u = new URL(url);
    return u.origin === new URL(origin).origin ? `${u.pathname}${u.search}` : u.href;
  } catch {
    return url;
  }
}
