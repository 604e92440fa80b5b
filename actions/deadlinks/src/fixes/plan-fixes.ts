import { createHash } from 'node:crypto';
import { placesOf } from '../../../../server/links/formats/places.js';
import type { DeadLinkReport, LinkItem, LinkSuggestion } from '../../../../server/links/report.js';
import type { LineRange } from '../changed-lines/unified-diff.js';
import { headLines, type HeadLines } from './head-lines.js';
import { suggestedLine, suggestionBlock, type LineFix } from './suggested-line.js';

export type { LinkSuggestion };

/** One review comment: a suggestion block that replaces the link on its line. */
export interface PlannedFix {
  path: string;
  /** In the pull request's head. */
  line: number;
  /** `file:line` in the checkout, as the report counts places. */
  place: string;
  /** The comment's body, its first line the marker. */
  body: string;
  /** Tells this fix's comment from every other (same path, line content and replacement). */
  marker: string;
  url: string;
  suggestion: LinkSuggestion;
  broken: boolean;
}

/** A fix the API knows that cannot be offered as a suggestion on its line, and why. */
export interface UnplacedFix {
  url: string;
  suggestion: LinkSuggestion;
  place: string;
  why: Exclude<LineFix, { kind: 'ok' }>['why'] | 'moved' | 'no_diff';
}

export interface FixPlan {
  fixes: PlannedFix[];
  unplaced: UnplacedFix[];
}

export interface FixSource {
  /** The checkout, whose lines the report's places are in. */
  workspace: string;
  /** The pull request's head: review comments address its lines (mapped from the checkout's). */
  headSha?: string;
  /** Per path, the lines the pull request adds or changes (review comments can only go there). */
  changed: Record<string, LineRange[] | 'all'>;
  /** The check's comment key, in each marker, so two checks of one pull request keep theirs apart. */
  key: string;
}

/**
 * The suggestion comments for the report's links with a known fix, one per place on a
 * changed line, addressed to the line's number in the pull request's head (on a test merge
 * commit whose base moved on, its shifted one). A place is offered only when the head has
 * that line unchanged and the link can be replaced on it without touching anything else.
 */
export async function planFixes(report: DeadLinkReport, src: FixSource): Promise<FixPlan> {
  const lists: Array<[LinkItem[], boolean]> = [[report.broken_links, true], [report.redirects, false], [report.upgrades ?? [], false], [report.warnings, false]];
  const seen = new Set<string>();
  const files = new Map<string, Promise<HeadLines>>();
  const linesOf = (file: string) => {
    if (!files.has(file)) files.set(file, headLines(src.workspace, src.headSha, file));
    return files.get(file) as Promise<HeadLines>;
  };
  const plan: FixPlan = { fixes: [], unplaced: [] };
  for (const [items, broken] of lists) {
    for (const item of items) {
      const suggestion = item.suggestion;
      if (!suggestion || seen.has(item.url)) continue;
      seen.add(item.url);
      for (const p of placesOf(item)) {
        if (!p || p.line === undefined) continue;
        const changed = onChangedLine(src.changed, p.file, p.line);
        if (!changed) continue;
        const place = `${p.file}:${p.line}`;
        if (changed === 'whole_file') {
          plan.unplaced.push({ url: item.url, suggestion, place, why: 'no_diff' });
          continue;
        }
        const lines = await linesOf(p.file);
        const text = lines.text(p.line);
        const line = lines.inHead(p.line);
        if (text === undefined || line === undefined) {
          plan.unplaced.push({ url: item.url, suggestion, place, why: 'moved' });
          continue;
        }
        const fixed = suggestedLine(text, item.url, suggestion.url);
        if (fixed.kind !== 'ok') {
          plan.unplaced.push({ url: item.url, suggestion, place, why: fixed.why });
          continue;
        }
        const marker = `<!-- sitelens:deadlinks-fix key=${markerKey(src.key)} fix=${digest(p.file, text, fixed.line)} -->`;
        const body = [marker, why(item, suggestion), '', suggestionBlock(fixed.line)].join('\n');
        plan.fixes.push({ path: p.file, line, place, body, marker, url: item.url, suggestion, broken });
      }
    }
  }
  return plan;
}

/** The key as the sticky comment's marker writes it: nothing in it can end the HTML comment early. */
const markerKey = (key: string) => key.replace(/[^\w.:/@+=-]/g, '_').replace(/-{2,}/g, '-').slice(0, 120);

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16);

/**
 * Whether a line is one the pull request changes: `whole_file` for a file GitHub shows no
 * patch of (too large), whose lines a review comment cannot address; one such comment would
 * make GitHub refuse the whole review.
 */
function onChangedLine(changed: FixSource['changed'], file: string, line: number): boolean | 'whole_file' {
  const ranges = changed[file];
  if (ranges === undefined) return false;
  if (ranges === 'all') return 'whole_file';
  return ranges.some(([from, to]) => line >= from && line <= to);
}

/** The comment's sentence: what the link does now and what the suggestion links instead. */
function why(item: LinkItem, s: LinkSuggestion): string {
  const from = `\`${item.url}\``;
  if (s.reason === 'permanent_redirect') {
    const hops = item.redirect_chain.map((h) => h.status).join(' → ');
    return `🔀 ${from} redirects permanently${hops ? ` (${hops})` : ''} to \`${s.url}\`: link the final address directly.`;
  }
  if (s.reason === 'https') return `🔒 ${from} also works over https: link \`${s.url}\`.`;
  const when = s.archived_at ? ` of ${s.archived_at.slice(0, 10)}` : '';
  const status = item.status !== null ? String(item.status) : item.kind;
  return `🗄️ ${from} is broken (${status}); the Wayback Machine has a copy${when}: link \`${s.url}\`. Check that the copy shows what the link meant.`;
}
