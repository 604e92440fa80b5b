import { count, detailsClose, detailsOpen, tableHead, tableRow } from './blocks.js';
import { fitToBudget, fitting, githubCommentLimit, type Block, type Noun, type Row } from './budget.js';
import { code, link, text, urlLink } from './escape.js';
import { urlLabels, type UrlLabels } from './url-labels.js';
import { contextLine, type RunContext } from './run-context.js';
import { placesOf } from '../links/formats/places.js';

/** A place a link was found: a file position (repository files, GitHub mode). */
export interface FilePlace {
  file: string;
  line?: number;
  column?: number;
}

/** The fields of a dead-link report item this renderer reads (the API's `LinkItem` has them). */
export interface LinkView {
  url: string;
  status: number | null;
  kind: string;
  is_image: boolean;
  found_on: string[];
  redirect_chain: Array<{ status: number; location: string }>;
  final_url: string;
  file?: string;
  line?: number;
  lines?: number[];
  locations?: FilePlace[];
  /** With `suggest_fixes`: the known fix (its kind is shown in the row). */
  suggestion?: { reason: string };
}

/** The fields of a dead-link report this renderer reads (the API's `DeadLinkReport` has them). */
export interface ReportView {
  target: string;
  mode: string;
  pages_crawled: number;
  total_links_checked: number;
  broken_count: number;
  broken_links: LinkView[];
  redirects: LinkView[];
  bot_blocked: LinkView[];
  warnings: LinkView[];
  /** Links found but not checked (offline, a fragment that cannot be judged); absent in older reports. */
  not_checked?: LinkView[];
  summary: { health_score: number; redirects_found: number; bot_blocked: number; warnings: number; broken_places?: number; not_checked?: number };
  timed_out?: true;
  pass?: boolean;
  gate?: { threshold?: number; max_broken?: number };
  checked_at: string;
}

export interface DeadLinksOptions {
  context?: RunContext;
  /** Lines under the gate line (Markdown), e.g. what was in scope. */
  notes?: string[];
  /** One Markdown sentence saying where every link is listed, shown when the report is cut. @default the JSON report */
  fullReport?: string;
  /** Base URL that file paths are appended to for links to the lines, e.g. `https://github.com/o/r/blob/<sha>/`. */
  sourceUrl?: string;
  /** Characters at most. @default 65,536 (a GitHub comment) */
  limit?: number;
  /** Links in the open table; the rest are folded in `<details>`. @default 20 */
  firstScreen?: number;
  /** Places listed per link; the rest are counted. @default 20 */
  placesPerLink?: number;
  /**
   * Without a gate (threshold, max_broken), the run still fails on any broken link (the
   * action's `fail_on: gate`), and the report says so; otherwise it names no gate. @default false
   */
  failsOnBroken?: boolean;
}

const nouns = {
  broken: ['broken link', 'broken links'],
  warning: ['warning', 'warnings'],
  redirect: ['redirect', 'redirects'],
  bot: ['bot-protected link', 'bot-protected links'],
  notChecked: ['link not checked', 'links not checked'],
  place: ['place', 'places'],
} satisfies Record<string, Noun>;

/** What a known fix is, for people (the report table, annotations). */
export const fixLabels: Record<string, string> = { permanent_redirect: 'final URL', https: 'https', archived: 'archived copy' };

/** ` · 🛠️ fix: archived copy` for an item whose fix is known, else nothing. */
const fixLabel = (item: LinkView) => (item.suggestion ? ` · 🛠️ fix: ${fixLabels[item.suggestion.reason] ?? text(item.suggestion.reason)}` : '');

/** How a link failed, for people: `404`, `dns`, `missing_fragment`. */
export const failure = (item: Pick<LinkView, 'status' | 'kind'>) => (item.status !== null && item.kind.startsWith('http_') ? String(item.status) : item.kind);

/**
 * The dead-link report as Markdown for a PR comment, a job summary or `format=markdown`:
 * a headline with the verdict and the figures; then one row per link target, broken before
 * warnings and most places first, each with every place it was found (file:line:column
 * or page), the first screen open and the rest in `<details>`; redirects and bot-protected
 * links folded; one footer. Always within `limit` characters, saying what was cut.
 */
export function renderDeadLinks(report: ReportView, o: DeadLinksOptions = {}): string {
  const limit = o.limit ?? githubCommentLimit;
  const firstScreen = o.firstScreen ?? 20;
  const placeCap = o.placesPerLink ?? 20;
  // Labels keep apart the long URLs that would read the same shortened (they differ in the middle).
  const linkLabel = urlLabels([...report.broken_links, ...report.warnings, ...report.redirects, ...report.bot_blocked].map((i) => i.url));
  const pageLabel = urlLabels([...report.broken_links, ...report.warnings, ...report.bot_blocked].flatMap((i) => i.found_on), 60);
  const linkTo = (url: string) => urlLink(url, undefined, linkLabel);
  // Places link to their lines in the open table; folded rows stay short so more fit.
  const placesOf = (item: LinkView, linked = true) => places(item, linked ? o.sourceUrl : undefined, pageLabel);

  const problems = [
    ...report.broken_links.map((item) => ({ item, broken: true })),
    ...report.warnings.map((item) => ({ item, broken: false })),
  ]
    .map((p) => ({ ...p, places: placesOf(p.item, false) }))
    .sort((a, b) => Number(b.broken) - Number(a.broken) || b.places.length - a.places.length || a.item.url.localeCompare(b.item.url));
  const problemRow = (p: (typeof problems)[number], linked: boolean): Row => {
    const all = linked ? placesOf(p.item) : p.places;
    const shown = all.slice(0, placeCap);
    const more = all.length - shown.length;
    const where = shown.join(', ') + (more ? `, … ${count(more, 'more place', 'more places')}` : '');
    const status = `${p.broken ? '❌' : '⚠️'} ${code(failure(p.item))}${p.item.is_image ? ' (image)' : ''}${fixLabel(p.item)}`;
    return { line: tableRow([linkTo(p.item.url), status, where]), noun: p.broken ? nouns.broken : nouns.warning, omits: more ? { noun: nouns.place, n: more } : undefined };
  };
  const problemHead = tableHead([{ title: 'Link' }, { title: 'Status' }, { title: 'Found in' }]);
  const blocks: Block[] = [];
  if (problems.length) {
    const title = `#### Broken links${report.warnings.length ? ' and warnings' : ''}`;
    blocks.push({ open: ['', title, '', ...problemHead], rows: problems.slice(0, firstScreen).map((p) => problemRow(p, true)), close: [] });
    const rest = problems.slice(firstScreen);
    if (rest.length) blocks.push({ open: [...detailsOpen(`${count(rest.length, 'more link', 'more links')} with problems`), ...problemHead], rows: rest.map((p) => problemRow(p, false)), close: detailsClose });
  }
  if (report.redirects.length) {
    const rows = report.redirects.map((i): Row => ({ line: tableRow([linkTo(i.url), redirectChain(i) + fixLabel(i)]), noun: nouns.redirect }));
    blocks.push({ open: [...detailsOpen(`Redirects (${report.redirects.length})`), ...tableHead([{ title: 'Link' }, { title: 'Redirects' }])], rows, close: detailsClose });
  }
  if (report.bot_blocked.length) {
    const rows = report.bot_blocked.map((i): Row => ({ line: tableRow([linkTo(i.url), code(failure(i)), placesOf(i).slice(0, 5).join(', ')]), noun: nouns.bot }));
    blocks.push({
      open: [...detailsOpen(`Bot-protected, not counted as broken (${report.bot_blocked.length})`), ...tableHead([{ title: 'Link' }, { title: 'Status' }, { title: 'Found in' }])],
      rows,
      close: detailsClose,
    });
  }

  const notChecked = report.not_checked ?? [];
  if (notChecked.length) {
    const rows = notChecked.map((i): Row => ({ line: tableRow([urlLink(i.url), code(i.kind), placesOf(i).slice(0, 5).join(', ')]), noun: nouns.notChecked }));
    blocks.push({
      open: [...detailsOpen(`Not checked, not counted (${notChecked.length})`), ...tableHead([{ title: 'Link' }, { title: 'Why' }, { title: 'Found in' }])],
      rows,
      close: detailsClose,
    });
  }

  return fitToBudget(
    {
      head: header(report, o),
      blocks,
      cutNote: (what) => ['', `> ✂️ Not shown here, ${fitting(limit)}: ${what}. ${o.fullReport ?? 'The JSON report lists every link.'}`],
      foot: ['', `<sub>SiteLens dead-link check · ${text(report.mode)} mode · ${text(report.checked_at)}</sub>`],
    },
    limit,
  ).markdown;
}

function header(r: ReportView, o: DeadLinksOptions): string[] {
  const pass = r.pass ?? r.broken_count === 0;
  const checked = count(r.total_links_checked, 'link');
  // Broken links are targets; each is listed once with every place it is found (what annotations count).
  const places = r.summary.broken_places ?? r.broken_count;
  const broken = `${num(r.broken_count)} broken${places !== r.broken_count ? ` (${count(places, 'place')})` : ''}`;
  const title = !pass
    ? `### ❌ Dead links: ${broken} of ${checked} checked`
    : r.broken_count
      ? `### ✅ Dead links: gate passed, ${broken} of ${checked} checked`
      : `### ✅ Dead links: none broken of ${checked} checked`;
  const notChecked = r.summary.not_checked ?? r.not_checked?.length ?? 0;
  const s = r.summary;
  const documents = r.mode === 'documents' ? 'Documents' : r.mode === 'github' ? 'Files' : 'Pages';
  return [
    title,
    '',
    ...contextLine(o.context),
    gateLine(r, pass, o.failsOnBroken ?? false),
    ...(o.notes ?? []).flatMap((n) => ['', n]),
    ...(r.timed_out ? ['', '> [!NOTE]', '> The check reached its time budget (`max_duration`): these results are partial.'] : []),
    ...(notChecked ? ['', `${count(notChecked, 'link was', 'links were')} found but not checked (listed below; not counted in the health score).`] : []),
    '',
    ...tableHead(['Health score', 'Broken', 'Warnings', 'Checked', documents, 'Redirects', 'Bot-protected'].map((title) => ({ title, align: 'right' as const }))),
    tableRow([s.health_score, r.broken_count, s.warnings, r.total_links_checked, r.pages_crawled, s.redirects_found, s.bot_blocked].map(num)),
  ];
}

function gateLine(r: ReportView, pass: boolean, failsOnBroken: boolean): string {
  const target = `Target: ${urlLink(r.target)}.`;
  const rules = [
    r.gate?.threshold !== undefined ? `health score ≥ ${r.gate.threshold}` : '',
    r.gate?.max_broken !== undefined ? `at most ${count(r.gate.max_broken, 'broken link')}` : '',
  ].filter(Boolean);
  if (!rules.length) return failsOnBroken ? `${target} Gate: no broken links, **${pass ? 'passed' : 'failed'}**.` : target;
  const verdict = pass
    ? `**passed** with a health score of ${r.summary.health_score}${r.broken_count ? `; the ${count(r.broken_count, 'broken link')} below ${r.broken_count === 1 ? 'is' : 'are'} within it` : ''}`
    : `**failed** with a health score of ${r.summary.health_score} and ${count(r.broken_count, 'broken link')}`;
  return `${target} Gate: ${rules.join(' and ')}, ${verdict}.`;
}

/** Every place an item was found, as Markdown: `docs/a.md:12:5` (linked to the line when `sourceUrl` is known) or the page. */
function places(item: LinkView, sourceUrl: string | undefined, pageLabel: UrlLabels): string[] {
  const inFiles = placesOf(item).filter((p) => p !== null);
  if (inFiles.length) return inFiles.map((p) => filePlace(p, sourceUrl));
  return item.found_on.map((page) => urlLink(page, 60, pageLabel));
}

function filePlace(p: FilePlace, sourceUrl: string | undefined): string {
  const label = [p.file, p.line, p.line !== undefined ? p.column : undefined].filter((x) => x !== undefined).join(':');
  if (!sourceUrl) return code(label);
  const path = p.file.split('/').map(encodeURIComponent).join('/');
  return link(label, `${sourceUrl}${path}${p.line !== undefined ? `#L${p.line}` : ''}`);
}

const num = (n: number) => n.toLocaleString('en-US');

const redirectChain = (i: LinkView) =>
  [...i.redirect_chain.map((h) => String(h.status)), i.status === null ? i.kind : String(i.status)].join(' → ') + ` ${urlLink(i.final_url, 60)}`;
