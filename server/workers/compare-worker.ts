import { UnrecoverableError, type Job } from 'bullmq';
import type { WorkerDeps } from './worker-deps.js';
import { httpReply } from '../errors/index.js';
import { diedTooOften } from './stalls.js';
import { buildReport, type CompareReport } from '../compare/compare-report.js';
import { runComparison } from '../compare/compare-run.js';
import { diffRun } from '../compare/diff-run.js';
import { trendChart } from '../compare/trend-chart.js';
import { renderOwnerFor, runAsRenderOwner } from '../render/browser-pool.js';
import { COMPARE_ATTEMPTS, type CompareJobData, type CompareOutcome } from '../jobs/compare-jobs.js';

/**
 * One queued comparison: run the checks on both sides (unless a run that died already stored
 * the outcome), store the outcome, schedule its webhook, and only then complete; the same
 * idempotent steps as the screenshot job.
 */
export function compareWork(deps: WorkerDeps) {
  return async (job: Job<CompareJobData>): Promise<{ job_id: string }> => {
    const id = job.id ?? '';
    const outcome = (await deps.compares.outcome(id)) ?? (await compare(deps, id, job));
    if (job.data.webhook_url) await deps.jobs.scheduleWebhook({ job_id: id, url: job.data.webhook_url, owner: job.data.owner, kind: 'compare' });
    if (outcome.status === 'failed') throw new UnrecoverableError(outcome.error);
    return { job_id: id };
  };
}

async function compare(deps: WorkerDeps, id: string, job: Job<CompareJobData>): Promise<CompareOutcome> {
  const { input } = job.data;
  const c = deps.config;
  let outcome: CompareOutcome;
  try {
    const died = diedTooOften(job);
    if (died) throw died;
    const started = new Date();
    // The screenshots count against the owner's share of the browser, as a queued screenshot does.
    const owner = renderOwnerFor(c.RENDER_SHARE, await deps.keys.findByHash(job.data.owner), 'queue');
    const run = await runAsRenderOwner(owner, () => runComparison(
      input,
      {
        http: deps.http,
        browser: deps.browser,
        adBlocker: deps.adBlocker,
        detector: deps.techDetector,
        tlsCa: deps.tlsCa,
        diffs: deps.diffs,
        diffImageUrl: (diff, image) => `${c.baseUrl}/api/screenshot/diff/${diff}/${image}`,
        timeoutMs: c.FETCH_TIMEOUT_MS,
        renderTimeoutMs: c.RENDER_TIMEOUT_MS,
        maxBytes: c.ANALYSIS_MAX_BYTES,
      },
      (p) => job.updateProgress({ ...p }),
    ));
    const report = buildReport(input, diffRun(input, run), started);
    const runs = await deps.compares.record(job.data.owner, input.baseline_url, id, { at: report.completed_at, baseline: report.health.baseline, preview: report.health.preview });
    outcome = { job_id: id, status: 'completed', report: { ...report, trend: { image_url: await trendImage(deps, job.data.trend_id, runs), runs } } };
  } catch (err) {
    const reply = httpReply(err);
    if (reply.internal) deps.log.error({ err, job: id }, 'compare job failed');
    // The caller's mistake (a refused target) will not get better; the rest is retried.
    const hopeless = (reply.status < 500 && reply.status !== 429) || diedTooOften(job) !== null;
    if (!hopeless && job.attemptsMade + 1 < (job.opts.attempts ?? COMPARE_ATTEMPTS)) throw err;
    outcome = { job_id: id, status: 'failed', error: reply.body.error, code: reply.code };
  }
  await deps.compares.storeOutcome(outcome);
  return (await deps.compares.outcome(id)) ?? outcome;
}

/** The trend picture's URL; a chart that cannot be drawn leaves the report without one rather than failing it. */
async function trendImage(deps: WorkerDeps, trendId: string, runs: CompareReport['trend']['runs']): Promise<string | null> {
  try {
    const png = await deps.charts.render(trendChart(runs));
    await deps.compares.saveTrend(trendId, png);
    return `${deps.config.baseUrl}/api/compare/trend/${trendId}/image`;
  } catch (err) {
    deps.log.warn({ err }, 'trend chart not drawn');
    return null;
  }
}
