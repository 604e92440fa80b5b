import { count } from '../../../../server/report-markdown/blocks.js';
import { code, link } from '../../../../server/report-markdown/escape.js';
import { placesOf } from '../../../../server/links/formats/places.js';
import type { DeadLinkReport } from '../../../../server/links/report.js';
import type { PostedReview } from '../../../shared/src/pull-request-review.js';
import type { FixPlan, LinkSuggestion, UnplacedFix } from './plan-fixes.js';

/** What became of the review: posted (possibly nothing new), or why not. */
export type ReviewOutcome = { kind: 'posted'; review: PostedReview } | { kind: 'failed'; reason: string };

const reasonNouns: Record<LinkSuggestion['reason'], [string, string]> = {
  permanent_redirect: ['permanent redirect', 'permanent redirects'],
  https: ['https upgrade', 'https upgrades'],
  archived: ['archived copy', 'archived copies'],
};

const whyNot: Record<UnplacedFix['why'], string> = {
  not_verbatim: 'the URL is not written as such on the line',
  ambiguous: 'the URL is on the line more than once',
  unchanged: 'the fix is the URL itself',
  moved: 'the line differs in the pull request\'s head',
  no_diff: 'GitHub shows no diff of the file to comment on',
};

/** Shown at most, of the fixes that could not be offered; the rest are counted. */
const unplacedShown = 5;

/**
 * The PR comment's lines for a reviewer: which fixes were offered as suggestions (by kind,
 * and where; those past a review's `max` wait for a later run), which known fixes could not
 * be, and which broken links are left to fix by hand. Always a few lines, whatever the
 * report's size: places are listed only for the few fixes that could not be offered.
 */
export function fixNotes(report: DeadLinkReport, plan: FixPlan, outcome: ReviewOutcome, max: number): string[] {
  const notes: string[] = [];
  const held = new Set<object>(outcome.kind === 'posted' ? outcome.review.held : []);
  const offered = plan.fixes.filter((f) => !held.has(f));
  if (offered.length) {
    const kinds = (Object.keys(reasonNouns) as Array<LinkSuggestion['reason']>)
      .map((r) => [r, offered.filter((f) => f.suggestion.reason === r).length] as const)
      .filter(([, n]) => n)
      .map(([r, n]) => count(n, ...reasonNouns[r]));
    const what = `${count(offered.length, 'fix', 'fixes')} (${kinds.join(', ')})`;
    if (outcome.kind === 'failed') notes.push(`🛠️ ${what} could not be offered as suggestions: ${outcome.reason}.`);
    else {
      const { posted, repeated, url } = outcome.review;
      const where = url ? link("this run's review", url) : 'earlier reviews';
      const earlier = posted && repeated ? `; ${count(repeated, 'was', 'were')} offered by an earlier run and ${repeated === 1 ? 'is' : 'are'} not repeated` : '';
      notes.push(`🛠️ **Fixed for you:** ${what} offered as suggestions in ${where}${earlier}. Each replaces only the link on its line: “Commit suggestion” applies it.`);
    }
  }
  if (held.size) notes.push(`${count(held.size, 'more fix', 'more fixes')} past the ${max} new suggestions a review carries will be offered by the next run.`);
  if (plan.unplaced.length) {
    const listed = plan.unplaced
      .slice(0, unplacedShown)
      .map((u) => `${code(u.place, 'text')}: ${code(u.url, 'text')} → ${code(u.suggestion.url, 'text')} (${whyNot[u.why]})`);
    const more = plan.unplaced.length - listed.length;
    notes.push(`${count(plan.unplaced.length, 'known fix', 'known fixes')} could not be offered as a suggestion, so no line is changed in a way you did not write: ${listed.join('; ')}${more ? `; and ${more} more` : ''}.`);
  }
  const fixedPlaces = new Set((outcome.kind === 'posted' ? offered : []).filter((f) => f.broken).map((f) => `${f.url}\n${f.place}`));
  const left = report.broken_links.filter((item) => placesOf(item).some((p) => !p || !fixedPlaces.has(`${item.url}\n${p.file}:${p.line}`)));
  const of = left.length < report.broken_links.length ? ` (of the ${report.broken_links.length} listed below; 🛠️ marks a known fix)` : ' (listed below)';
  if (left.length) notes.push(`✋ **Left for you:** ${count(left.length, 'broken link')} with no suggestion to accept${of}.`);
  else if (report.broken_count) notes.push('✋ **Left for you:** nothing else: every broken link has a suggested fix.');
  return notes;
}
