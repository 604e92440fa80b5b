/**
 * Draws docs/preview-report-comment.png: the preview report's PR comment as a reader sees it.
 * Runs the real thing on this machine's loopback (the two-deployment test fixture, the
 * service with a worker, one earlier run for the trend), renders the comment's Markdown to
 * HTML with marked and GitHub-like styles, and captures it with the service's own
 * html-to-image renderer in Chromium.
 *
 *   node --import tsx scripts/preview-report-picture.ts [out.png]
 *
 * Needs Redis (REDIS_URL, or one on 127.0.0.1:6379) and Chromium, as the tests do.
 */
import { writeFile } from 'node:fs/promises';
import { marked } from 'marked';
import sharp from 'sharp';
import type { CompareReport } from '../server/compare/compare-report.js';
import { htmlToImage } from '../server/render/html-to-image.js';
import { renderPreviewReport } from '../server/report-markdown/preview-report.js';
import { startPreviewFixture } from '../test/compare/preview-fixture.js';
import { internalRenderOwner } from '../server/render/browser-pool.js';
import { sharedBrowserPool } from '../test/support/browser.js';
import { startTestService, type TestService } from '../test/support/service.js';
import { until } from '../test/support/wait.js';

const out = process.argv[2] ?? 'docs/preview-report-comment.png';

/** What a reader's comment shows for the two sites, instead of this machine's loopback ports. */
const shownAs = { production: 'https://acme-widgets.example', preview: 'https://pr-128.acme-widgets.example' };

const styles = `
body { margin: 0; background: #fff; }
.comment { width: 1010px; margin: 16px; border: 1px solid #d0d7de; border-radius: 6px; font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #1f2328; }
.comment > .head { background: #f6f8fa; border-bottom: 1px solid #d0d7de; padding: 8px 16px; color: #59636e; border-radius: 6px 6px 0 0; }
.comment > .body { padding: 16px; }
h3 { font-size: 18px; margin: 0 0 12px; }
a { color: #0969da; text-decoration: none; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; background: #eff1f3; padding: 2px 4px; border-radius: 4px; }
table { border-collapse: collapse; margin: 12px 0; }
th, td { border: 1px solid #d0d7de; padding: 4px 10px; }
th { background: #f6f8fa; font-weight: 600; }
details { margin: 6px 0; }
summary { cursor: pointer; font-weight: 500; }
sub { color: #59636e; }
p { margin: 8px 0; }
`;

async function compare(svc: TestService, key: string, baseline: string, preview: string): Promise<CompareReport> {
  const queued = await svc.call('/api/compare', { method: 'POST', headers: { 'X-API-Key': key }, json: { baseline_url: baseline, preview_url: preview, paths: ['/'], viewports: [{ width: 400, height: 300 }] } });
  if (queued.status !== 202) throw new Error(`POST /api/compare answered ${queued.status}: ${queued.text}`);
  return until('the comparison', async () => {
    const s = await svc.call(`/api/compare/${queued.body.job_id}`, { headers: { 'X-API-Key': key } });
    if (s.body.status === 'failed') throw new Error(s.body.error);
    return s.body.status === 'completed' ? (s.body.report as CompareReport) : undefined;
  }, 120_000, 250);
}

const site = await startPreviewFixture();
const svc = await startTestService({}, { workers: true });
try {
  await svc.deps.techDetector.ready();
  const key = await svc.newKey('business');
  // Two earlier runs, so the trend picture has a line to draw.
  await compare(svc, key, site.production.url, site.twin.url);
  await compare(svc, key, site.production.url, site.twin.url);
  const report = await compare(svc, key, site.production.url, site.preview.url);
  const shown = JSON.parse(
    JSON.stringify(report).split(site.production.url).join(shownAs.production).split(site.preview.url).join(shownAs.preview),
  ) as CompareReport;
  const markdown = renderPreviewReport(shown, {
    context: {
      commit: { sha: '4f2c9e1b7d3a', url: 'https://github.com/acme/widgets/commit/4f2c9e1b7d3a' },
      run: { label: 'run 512', url: 'https://github.com/acme/widgets/actions/runs/512' },
    },
    notes: ['Full report: [sitelens-preview-report-preview.json](https://github.com/acme/widgets/actions/runs/512/artifacts/1) (workflow artifact, JSON).'],
  });
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>${styles}</style></head><body><div class="comment"><div class="head"><b>github-actions</b> bot commented</div><div class="body">${await marked.parse(markdown)}</div></div></body></html>`;
  const png = await htmlToImage(
    { html, width: 1060, height: 2400, format: 'png', scale: 1, quality: 90, darkMode: false },
    { pool: svc.deps.browser.as(internalRenderOwner), policy: svc.deps.http.policy },
  );
  // The page is taller than the comment: keep the comment and a margin.
  await writeFile(out, await sharp(png).trim({ background: '#ffffff' }).extend({ top: 12, bottom: 12, left: 12, right: 12, background: '#ffffff' }).png().toBuffer());
  console.log(`wrote ${out}`);
} finally {
  await svc.close();
  await site.close();
  await sharedBrowserPool().close();
}
