import type { Job } from 'bullmq';
import type { WorkerDeps } from './worker-deps.js';
import { runJobOnce } from './job-run.js';
import { buildReport, type CompareReport } from '../compare/compare-report.js';
import { runComparison } from '../compare/compare-run.js';
import { diffRun } from '../compare/diff-run.js';
import { trendChart } from '../compare/trend-chart.js';
import { renderOwnerFor, runAsRenderOwner } from '../render/browser-pool.js';
import { COMPARE_ATTEMPTS, type CompareJobData, type CompareOutcome } from '../jobs/compare-jobs.js';

/** One queued comparison, run once (`job-run.ts`): the checks on both sides and their report. */
export function compareWork(deps: WorkerDeps) {
  return (job: Job<CompareJobData>): Promise<{ job_id: string }> => {
    const id = job.id ?? '';
    const d = job.data;
    return runJobOnce<CompareOutcome>(job, deps, {
      kind: 'compare',
      attempts: COMPARE_ATTEMPTS,
      stored: () => deps.compares.outcome(id),
      store: (outcome) => deps.compares.storeOutcome(outcome),
      run: () => compare(deps, id, job),
      failed: (reply) => ({ job_id: id, status: 'failed', error: reply.body.error, code: reply.code }),
      failure: (outcome) => (outcome.status === 'failed' ? outcome.error : null),
      webhook: d.webhook_url ? { job_id: id, url: d.webhook_url, owner: d.owner, kind: 'compare' } : undefined,
    });
  };
}

async function compare(deps: WorkerDeps, id: string, job: Job<CompareJobData>): Promise<CompareOutcome> {
  const { input } = job.data;
  const c = deps.config;
  const started = new Date();
  // The screenshots count against the owner's share of the browser, as a queued screenshot does.
  const owner = renderOwnerFor(c.RENDER_SHARE, await deps.keys.findByHash(job.data.owner), 'queue');
  const run = await runAsRenderOwner(owner, () => runComparison(
    input,
    {
      http: deps.http,
      links: deps.links,
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
  return { job_id: id, status: 'completed', report: { ...report, trend: { image_url: await trendImage(deps, job.data.trend_id, runs), runs } } };
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
