import { createHash } from 'node:crypto';
import type { Location, Log, ReportingDescriptor, Result } from 'sarif';
import type { DeadLinkReport, LinkItem } from '../report.js';
import { placesOf } from './places.js';

export type SarifLog = Log;

export interface SarifOptions {
  /** `tool.driver.version`. The API passes its dead-link version (server/api/api-names.ts, which a domain module may not import); the action leaves the default. @default '2.5.0' */
  toolVersion?: string;
  /** `tool.driver.informationUri` and each rule's `helpUri` base (the service's docs page). */
  informationUri?: string;
}

/** One rule per family of finding kinds: code scanning groups alerts by rule, and 404 vs 410 is not a different fix. */
interface Family {
  id: string;
  name: string;
  short: string;
  help: string;
  matches: (kind: string) => boolean;
}

const families: Family[] = [
  { id: 'SL001', name: 'http-client-error', short: 'Link answers an HTTP 4xx error', help: 'The target answers a client error (404 not found, 410 gone, …). Point the link at the page\'s new address, or at an archived copy, or remove it.', matches: (k) => /^http_4\d\d$/.test(k) },
  { id: 'SL002', name: 'http-server-error', short: 'Link answers an HTTP 5xx error', help: 'The target\'s server fails (500, 502, 503, …). If it lasts, link to another source or to an archived copy.', matches: (k) => /^http_\d+$/.test(k) },
  { id: 'SL003', name: 'unreachable', short: 'Link target cannot be reached', help: 'No HTTP answer: the host name does not resolve, the connection is refused or reset, times out, or its TLS certificate is not valid. Check the host name; if the site is gone, link to an archived copy or remove the link.', matches: (k) => ['dns', 'refused', 'reset', 'timeout', 'tls', 'network'].includes(k) },
  { id: 'SL004', name: 'redirect-error', short: 'Link redirects in a loop or too often', help: 'The redirect chain loops or is longer than clients follow. Link to the final page directly.', matches: (k) => k === 'redirect_loop' || k === 'too_many_redirects' },
  { id: 'SL005', name: 'missing-file', short: 'Link to a file not in the repository', help: 'The relative link names a file or folder that is not in the repository. Fix the path (case matters on GitHub) or restore the file.', matches: (k) => k === 'missing_file' },
  { id: 'SL006', name: 'missing-fragment', short: 'Link to an anchor that does not exist', help: 'No heading or HTML anchor makes this #fragment in the target. Use the heading\'s current slug (GitHub lower-cases it and turns spaces into hyphens).', matches: (k) => k === 'missing_fragment' },
  { id: 'SL007', name: 'invalid-link', short: 'Link is not a valid or allowed URL', help: 'The URL cannot be parsed, or points at an address the checker refuses (a private network). Correct the URL.', matches: (k) => k === 'invalid_url' || k === 'blocked_target' },
  { id: 'SL008', name: 'unreadable-document', short: 'Document could not be read for links', help: 'The document could not be read in time or nests too deeply, so its links are unknown. Simplify the document or split it.', matches: (k) => k === 'unreadable' },
  { id: 'SL009', name: 'unused-definition', short: 'Link reference definition is never used', help: 'A Markdown reference definition that no reference uses renders nothing. Remove it or use it.', matches: (k) => k === 'unused_definition' },
  { id: 'SL010', name: 'rate-limited', short: 'Link target kept answering 429', help: 'The target rate-limited the checker after retries; the link may work. Check it by hand or add 429 to `accept`.', matches: (k) => k === 'rate_limited' },
  { id: 'SL099', name: 'broken-link', short: 'Link is broken', help: 'The link does not lead to a working page. Fix or remove it.', matches: () => true },
];

const familyOf = (kind: string): number => families.findIndex((f) => f.matches(kind));

/** A repository path as a relative URI reference: each segment percent-encoded (`#`, `?`, spaces), no leading slash. */
export const pathToUri = (file: string): string => file.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');

const sha = (parts: string[]) => createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 32);

function describe(item: LinkItem, level: 'error' | 'warning'): string {
  const what = item.status !== null ? `HTTP ${item.status}` : item.kind;
  const via = item.redirect_chain.length ? ` after ${item.redirect_chain.length} redirect(s)` : '';
  const head = level === 'error' ? `${item.url} is broken (${what}, ${item.kind})${via}.` : `${item.url}: ${item.error ?? item.kind}.`;
  const fix = item.suggestion ? ` Suggested replacement: ${item.suggestion.url} (${item.suggestion.reason.replace('_', ' ')}).` : '';
  return head + fix;
}

/**
 * A dead-link report as a SARIF 2.1.0 log for GitHub code scanning: one result per broken
 * place (repository files: file, line and column relative to `%SRCROOT%`; sites: the page as
 * the artifact), warnings at level `warning`. `partialFingerprints` hash the file, the link and
 * its kind family, plus which occurrence of that link in that file it is, never a line number:
 * an edit above a link keeps its alert, two copies of one link in a file stay two alerts.
 */
export function toSarif(report: DeadLinkReport, opts: SarifOptions = {}): SarifLog {
  const results: Result[] = [];
  const add = (item: LinkItem, level: 'error' | 'warning') => {
    const ruleIndex = familyOf(item.kind);
    const rule = families[ruleIndex];
    const seen = new Map<string, number>();
    for (const place of sitesOrPlaces(report, item)) {
      const where = typeof place === 'string' ? place : place.file;
      const nth = (seen.get(where) ?? 0) + 1;
      seen.set(where, nth);
      const location: Location =
        typeof place === 'string'
          ? { physicalLocation: { artifactLocation: { uri: place } } }
          : {
              physicalLocation: {
                artifactLocation: { uri: pathToUri(place.file), uriBaseId: '%SRCROOT%' },
                ...(place.line !== undefined ? { region: { startLine: place.line, ...(place.column !== undefined ? { startColumn: place.column } : {}) } } : {}),
              },
            };
      results.push({
        ruleId: rule.id,
        ruleIndex,
        level,
        message: { text: describe(item, level) },
        locations: [location],
        partialFingerprints: { 'sitelensFinding/v1': sha([where, item.url, rule.name, String(nth)]) },
        properties: {
          url: item.url,
          kind: item.kind,
          status: item.status,
          ...(item.suggestion ? { suggestion: item.suggestion } : {}),
        },
      });
    }
  };
  for (const item of report.broken_links) add(item, 'error');
  for (const item of report.warnings) add(item, 'warning');

  const rules: ReportingDescriptor[] = families.map((f) => ({
    id: f.id,
    name: f.name,
    shortDescription: { text: f.short },
    fullDescription: { text: f.help },
    help: { text: f.help, markdown: f.help },
    ...(opts.informationUri ? { helpUri: opts.informationUri } : {}),
    defaultConfiguration: { level: f.name === 'missing-fragment' || f.name === 'unused-definition' || f.name === 'rate-limited' ? 'warning' : 'error' },
    properties: { tags: ['links'] },
  }));

  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'SiteLens dead links',
            version: opts.toolVersion ?? '2.5.0',
            ...(opts.informationUri ? { informationUri: opts.informationUri } : {}),
            rules,
          },
        },
        // Our columns count UTF-16 code units (what editors and GitHub's annotations use).
        columnKind: 'utf16CodeUnits',
        ...(report.mode === 'documents' || report.mode === 'github' ? { originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The repository root' } } } } : {}),
        results,
        properties: { target: report.target, mode: report.mode, checked_at: report.checked_at, health_score: report.summary.health_score, ...(report.timed_out ? { timed_out: true } : {}) },
      },
    ],
  };
}

/** File places of an item, or for a site report the pages it was found on (the start page when none). */
function sitesOrPlaces(report: DeadLinkReport, item: LinkItem): Array<string | { file: string; line?: number; column?: number }> {
  const places = placesOf(item).filter((p) => p !== null);
  if (places.length) return places;
  return item.found_on.length ? item.found_on : [report.target];
}
