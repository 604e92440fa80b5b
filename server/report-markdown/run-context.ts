import { code, href, link, shorten, text } from './escape.js';

/** Where a report comes from, for its header: the commit checked and the workflow run. */
export interface RunContext {
  commit?: { sha: string; url: string };
  run?: { label: string; url: string };
}

/** `Commit [`abc1234`](…) · [run 42](…)`, or nothing when the context is unknown (the API). */
export function contextLine(ctx: RunContext | undefined): string[] {
  const parts = [
    ctx?.commit ? `Commit [${code(ctx.commit.sha.slice(0, 7), 'text')}](${href(ctx.commit.url)})` : '',
    ctx?.run ? link(ctx.run.label, ctx.run.url) : '',
  ].filter(Boolean);
  return parts.length ? [parts.join(' · '), ''] : [];
}

/**
 * Room a report leaves in a comment for the failed-run banner a later run may put on top
 * of it (the banner's reason is cut to fit).
 */
export const runFailureReserve = 1_000;

const bannerStart = '<!-- sitelens:run-failed -->';
const bannerEnd = '<!-- /sitelens:run-failed -->';

export interface RunFailure {
  /** The check: `Dead links`. */
  title: string;
  /** One line: what failed and why. */
  reason: string;
  context?: RunContext;
}

/** The lines saying this run failed and why, marked so a later run can replace them. */
function banner(f: RunFailure, after: string[]): string[] {
  const where = contextLine(f.context)[0];
  return [bannerStart, '> [!WARNING]', `> **${text(f.title)}: this run failed.** ${text(shorten(f.reason, 500))}${where ? `  \n> ${where}` : ''}`, ...after.map((l) => `> ${l}`), bannerEnd];
}

/** A job summary for a run that produced no report. */
export const runFailureSummary = (f: RunFailure) => banner(f, []).join('\n') + '\n';

/**
 * A PR comment for a run that produced no report (the API unreachable, a key refused):
 * the previous report stays as it was, under one line saying this run failed and why,
 * so a reviewer keeps the last good result and knows it is not current. A banner from an
 * earlier failed run is replaced, not stacked.
 */
export function withRunFailure(previous: string | undefined, f: RunFailure): string {
  const kept = previous ? stripRunFailure(previous).trim() : '';
  const lines = banner(f, [kept ? 'The report below is from the previous run.' : 'There is no earlier report to show.']);
  return [...lines, '', kept].join('\n').trimEnd() + '\n';
}

/** The body without a failed-run banner. */
function stripRunFailure(body: string): string {
  const start = body.indexOf(bannerStart);
  const end = body.indexOf(bannerEnd);
  if (start < 0 || end < start) return body;
  return body.slice(0, start) + body.slice(end + bannerEnd.length).replace(/^\n+/, '');
}
