/**
 * A repository's Markdown files against the field: a generated 200-file repository
 * (`support/markdown-repo.ts`: relative links, cross-file and same-file `#fragments`, headings
 * with repeated slugs, images, 3,000 links to 600 URLs of an external host on loopback, some
 * of every kind broken), checked one after another in this process by
 *
 * - this service's documents mode (`POST /api/deadlinks/documents`, every file in one call),
 * - the deadlinks action on the repository's checkout (`files: '**\/*.md'`), run as the runner
 *   runs it, against the same service,
 * - markdown-link-check 3 (CLI on the `docs` folder, as its GitHub Action runs it),
 * - linkinator 8 (`--markdown --recurse --check-fragments`, CLI).
 *
 * Every tool is scored against the generator's ground truth per class (recall, and false
 * results: anything reported broken that is not), and the external host counts the requests
 * each URL got. The result caches are off, so every run checks every link.
 *
 *   node --import tsx bench/deadlinks-files.ts [--runs 5] [--mlc-runs 1] [--latency 20-60]
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { flag, load, numberFlag, startServerProcess, timed, type Timed } from './support/bench-kit.js';
import { FILES, writeMarkdownRepo, type GroundTruth, type LinkClass } from './support/markdown-repo.js';
import { gitRepo } from '../test/actions/support/git-repo.js';
import { runAction } from '../test/actions/support/run-action.js';
import { startGithubStandIn } from '../test/actions/support/github-stand-in.js';
import { startTestService } from '../test/support/service.js';

const exec = promisify(execFile);
const CLASSES: LinkClass[] = ['file', 'image', 'fragmentSameFile', 'fragmentCrossFile', 'external'];
const MLC = path.resolve('data/bench-peers/markdown-link-check/node_modules/.bin/markdown-link-check');
const LINKINATOR = path.resolve('node_modules/.bin/linkinator');

/** What a tool reported broken: repository paths (`path#fragment`) and external URLs. */
type Reported = Set<string>;

export async function run() {
  const runs = numberFlag('runs', 5);
  const ext = await startServerProcess('bench/support/external-host.ts', { LATENCY_MS: flag('latency', '20-60') });
  const requests = async (): Promise<Record<string, number>> => {
    const answer = new Promise<Record<string, number>>((resolve) => ext.child.once('message', (m) => resolve((m as { counts: Record<string, number> }).counts)));
    ext.child.send('counts');
    return answer;
  };
  const repo = await gitRepo();
  const gh = await startGithubStandIn();
  // Every run checks every link: no result shared from the run before.
  const svc = await startTestService({ GITHUB_API_URL: gh.url, LINK_CACHE_OK_SECONDS: '0', LINK_CACHE_FAIL_SECONDS: '0' });
  const key = await svc.newKey('business');
  try {
    const { paths, truth } = await writeMarkdownRepo(repo.dir, ext.url);
    await repo.git('add', '-A');
    await repo.git('commit', '-qm', 'generated documentation');
    const documents = await Promise.all(paths.filter((p) => p.endsWith('.md')).map(async (p) => ({ path: p, content: await readFile(path.join(repo.dir, p), 'utf8') })));
    console.log(`\nGenerated repository: ${FILES} Markdown files, ${paths.length - FILES} images, ${[...truth.externalLinks.values()].reduce((a, b) => a + b, 0)} links to ${truth.externalLinks.size} external URLs (${flag('latency', '20-60')} ms each); broken: ${CLASSES.map((c) => `${truth[c].size} ${c}`).join(', ')}. Median of ${runs} runs; load ${load()} at the start.\n`);

    const measured: Array<{ tool: string; t: Timed<Reported>; counts: Record<string, number> }> = [];
    const measure = async (tool: string, n: number, fn: () => Promise<Reported>) => {
      ext.child.send('reset');
      const t = await timed(n, fn);
      measured.push({ tool, t, counts: await requests() });
    };

    const documentsMode = async () => {
      const r = await svc.call('/api/deadlinks/documents', {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ documents, paths, fragments: 'error', max_duration: 120 }),
      });
      if (r.status !== 200) throw new Error(`documents mode answered ${r.status}: ${r.text.slice(0, 300)}`);
      return reportedBy(r.body, ext.url);
    };
    await documentsMode(); // warm up: the service's reading threads are running when a request arrives
    await measure('this service, documents mode (one call, over HTTP)', runs, documentsMode);
    await measure('the deadlinks action (`files: **/*.md`), as the runner runs it', runs, async () => {
      const run = await runAction(
        'actions/deadlinks',
        { files: '**/*.md', fragments: 'error', api_url: svc.url, api_key: key, github_token: 'ghs_installation', artifact: 'false', comment: 'false', fail_on: 'never' },
        { repository: 'acme/docs', githubApiUrl: gh.url, eventName: 'push', workspace: repo.dir },
      );
      if (!run.outputs.report) throw new Error(`the action wrote no report: ${run.stdout.slice(-500)} ${run.stderr.slice(-500)}`);
      return reportedBy(JSON.parse(await readFile(run.outputs.report, 'utf8')), ext.url);
    });
    await measure('markdown-link-check 3 (CLI, `docs`)', numberFlag('mlc-runs', 1), async () => {
      const out = await exec(MLC, ['docs'], { cwd: repo.dir, maxBuffer: 1 << 28 }).catch((e: { stdout?: string }) => e);
      return mlcReported(out.stdout ?? '', ext.url);
    });
    await measure('linkinator 8 (CLI, `--markdown --recurse --check-fragments`)', runs, async () => {
      const out = await exec(LINKINATOR, ['**/*.md', '--markdown', '--recurse', '--check-fragments', '--format', 'json'], { cwd: repo.dir, maxBuffer: 1 << 28 }).catch(
        (e: { stdout?: string }) => e,
      );
      const links = (JSON.parse(out.stdout ?? '{"links":[]}') as { links: Array<{ url: string; state: string }> }).links;
      return new Set(links.filter((l) => l.state === 'BROKEN').map((l) => repositoryKey(l.url, ext.url)));
    });

    console.log(`| tool | median (s) | runs (s) | load | ${CLASSES.map((c) => `${c} recall`).join(' | ')} | false results | requests per external URL |`);
    console.log(`|---|---:|---|---|${CLASSES.map(() => '---:').join('|')}|---:|---|`);
    for (const { tool, t, counts } of measured) {
      const s = score(t.last, truth);
      const recall = CLASSES.map((c) => `${s.found[c]}/${truth[c].size}`).join(' | ');
      console.log(`| ${tool} | ${t.seconds.toFixed(2)} | ${t.all.map((x) => x.toFixed(2)).join(' ')} | ${t.load} | ${recall} | ${s.falseResults.length} | ${perUrl(counts, truth, t.all.length)} |`);
      if (s.falseResults.length) console.log(`  false results of ${tool} (first 5): ${s.falseResults.slice(0, 5).join(', ')}`);
    }
    const ours = measured[0].t;
    const action = measured[1].t;
    const linkinator = measured[3].t;
    console.log(`\ndocuments mode / linkinator: ${(ours.seconds / linkinator.seconds).toFixed(2)}× (goal ≤ 0.5×) ${ours.seconds / linkinator.seconds <= 0.5 ? 'met' : 'NOT met'}`);
    console.log(`the action / linkinator: ${(action.seconds / linkinator.seconds).toFixed(2)}×`);
  } finally {
    await svc.close();
    await gh.close();
    await repo.remove();
    ext.close();
  }
}

/** What a documents report lists as broken (fragments included: the run asks for `fragments: error`). */
function reportedBy(report: { broken_links: Array<{ url: string }> }, externalBase: string): Reported {
  return new Set(report.broken_links.map((i) => repositoryKey(i.url, externalBase)));
}

/** A reported URL as the ground truth names it: external URLs as they are, anything else as a repository path. */
function repositoryKey(url: string, externalBase: string): string {
  if (url.startsWith(externalBase)) return url;
  return url.replace(/^https?:\/\/[^/]+\//, '');
}

/** markdown-link-check's text output: `FILE: path` headers, then `[✖] link` per dead link (the repeat with `→ Status` left out). */
function mlcReported(stdout: string, externalBase: string): Reported {
  const reported = new Set<string>();
  let file = '';
  for (const line of stdout.split('\n')) {
    const header = /^FILE: (.+)$/.exec(line.trim());
    if (header) file = header[1];
    const dead = /^\s*\[✖\] (\S+)\s*$/.exec(line);
    if (!dead || !file) continue;
    const link = dead[1];
    if (/^https?:/.test(link)) reported.add(repositoryKey(link, externalBase));
    else if (link.startsWith('#')) reported.add(`${file}${link}`);
    else reported.add(path.posix.normalize(path.posix.join(path.posix.dirname(file), link)));
  }
  return reported;
}

function score(reported: Reported, truth: GroundTruth): { found: Record<LinkClass, number>; falseResults: string[] } {
  const found = Object.fromEntries(CLASSES.map((c) => [c, [...truth[c]].filter((k) => reported.has(k)).length])) as Record<LinkClass, number>;
  const falseResults = [...reported].filter((k) => !CLASSES.some((c) => truth[c].has(k))).sort();
  return { found, falseResults };
}

/** The requests the external host got per URL over a tool's runs: `1` when each URL got one per run (HEAD or GET), else the spread. */
function perUrl(counts: Record<string, number>, truth: GroundTruth, runs: number): string {
  const byUrl = new Map<string, number>();
  for (const [key, n] of Object.entries(counts)) {
    const p = key.split(' ')[1];
    byUrl.set(p, (byUrl.get(p) ?? 0) + n);
  }
  const perRun = [...byUrl.values()].map((n) => n / runs);
  if (!perRun.length) return '–';
  const twice = perRun.filter((n) => n > 1).length;
  const heads = Object.entries(counts).filter(([k]) => k.startsWith('HEAD ')).length;
  return `${Math.min(...perRun)}–${Math.max(...perRun)} (${twice} of ${truth.externalLinks.size} URLs more than once${heads ? '; HEAD, then GET where it failed' : ''})`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
  process.exit(0);
}
