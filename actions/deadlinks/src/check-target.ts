import { count } from '../../../server/report-markdown/blocks.js';
import { code } from '../../../server/report-markdown/escape.js';
import type { ApiClient, Query } from '../../shared/src/api-client.js';
import { pullRequestChanges } from './changed-lines/pull-request-diff.js';
import type { ChangedLines } from './changed-lines/unified-diff.js';
import { checkDocuments } from './documents/check-documents.js';
import { findReadme, git, repositoryPaths } from './documents/repository-paths.js';
import { matchWorkspaceFiles, readDocuments } from './documents/workspace-files.js';
import type { DeadLinkReport } from '../../../server/links/report.js';
import type { DeadlinksSettings } from './settings.js';
import { waitWhenAsked } from '../../shared/src/wait-for-url.js';

export interface Checked {
  report: DeadLinkReport;
  /** Markdown lines for the report's header: what was in scope, what was left out. */
  notes: string[];
  /** Base URL of links to a file's lines (`…/blob/<commit>/`). */
  sourceUrl?: string;
  /** changed_only on a pull request: the lines it adds or changes, per path. */
  changed?: ChangedLines;
}

/** Checks what the settings name, through the API, and says what was in scope. */
export async function checkTarget(api: ApiClient, s: DeadlinksSettings): Promise<Checked> {
  const t = s.target;
  const notApplicable = s.changedOnly ? ['`changed_only` applies to repository files (`files`, or this repository\'s README): every link was checked.'] : [];
  if (t.kind === 'site') {
    await waitWhenAsked(s.wait, t.url, s.targetHeaders, !!s.github.stepSummary);
    const targetHeaders = s.targetHeaders ? JSON.stringify(s.targetHeaders) : undefined;
    const report = await api.get<DeadLinkReport>('/api/deadlinks', { url: t.url, mode: t.mode, max_pages: t.maxPages, render: t.render ? undefined : false, target_headers: targetHeaders, ...common(s) });
    return { report, notes: notApplicable };
  }
  if (t.kind === 'github') return checkReadmeRemotely(api, s, t.repository, t.ref, notApplicable);
  const ws = s.github.workspace;
  if (t.kind === 'readme') {
    const { paths } = await repositoryPaths(ws, []);
    const readme = findReadme(paths);
    if (!readme) {
      if (s.api.offline) throw new Error('input offline: there is no README in the workspace to check without network (add actions/checkout before this step)');
      const note = 'No README in the workspace (add `actions/checkout` before this step): it was fetched by the API through the GitHub API, which reaches public repositories only.';
      return checkReadmeRemotely(api, s, s.github.repository, s.github.pullRequest?.headSha, [note, ...notApplicable]);
    }
    return checkCheckout(api, s, [readme], `the README (${code(readme, 'text')}) from the checkout`, undefined, paths);
  }
  const matched = await matchWorkspaceFiles(ws, t.patterns);
  if (!matched.paths.length) {
    throw new Error(`input files: no file of the workspace matches ${t.patterns.map((p) => JSON.stringify(p)).join(', ')} (is there an actions/checkout step before this one?)`);
  }
  const result = await checkCheckout(api, s, matched.paths, `${count(matched.paths.length, 'file')} matching ${t.patterns.map((p) => code(p, 'text')).join(', ')}`, t.siteRoot);
  if (matched.skipped.length) result.notes.push(`Not read: ${matched.skipped.map((p) => code(p, 'text')).join(', ')}.`);
  return result;
}

/** Options of every mode, as the GET endpoint takes them. */
const common = (s: DeadlinksSettings): Query => ({
  exclude: s.api.exclude,
  accept: s.api.accept.join(','),
  check_only: s.api.checkOnly,
  fragments: s.api.fragments,
  max_duration: s.api.maxDuration,
  format: 'json',
});

async function checkReadmeRemotely(api: ApiClient, s: DeadlinksSettings, repository: string, ref: string | undefined, notes: string[]): Promise<Checked> {
  const report = await api.get<DeadLinkReport>('/api/deadlinks', { github: repository, ref, ...common(s) });
  return { report, notes, sourceUrl: `${s.github.serverUrl}/${repository}/blob/${ref ?? 'HEAD'}/` };
}

/** Files of the checkout through the documents endpoint; with changed_only on a pull request, only its changed lines. */
async function checkCheckout(
  api: ApiClient,
  s: DeadlinksSettings,
  documentPaths: string[],
  what: string,
  siteRoot?: string,
  /** The repository's paths, when the caller listed them already (they include `documentPaths`). */
  knownPaths?: string[],
): Promise<Checked> {
  const ws = s.github.workspace;
  const { documents, binary } = await readDocuments(ws, documentPaths);
  const paths = knownPaths ?? (await repositoryPaths(ws, documentPaths)).paths;
  const notes = [`Checked ${what}, relative links against the repository's ${count(paths.length, 'path')}.`];
  if (s.api.offline) notes.push('Offline (`offline: true`): nothing was fetched; links that need the network are listed under “Not checked” and left out of the counts.');
  if (binary.length) notes.push(`${count(binary.length, 'binary file')} not sent (no links to read): ${binary.slice(0, 5).map((p) => code(p, 'text')).join(', ')}${binary.length > 5 ? ', …' : ''}.`);
  let changed: ChangedLines | undefined;
  if (s.changedOnly && s.github.pullRequest) {
    const c = await pullRequestChanges(ws, s.github.pullRequest, s.github, s.githubToken);
    changed = c.lines;
    const inScope = documents.map((d) => c.lines.get(d.path)).filter((l) => l !== undefined && l.length);
    notes.push(`Only links on lines this pull request adds or changes were checked (\`changed_only\`): ${count(inScope.length, 'changed file')} of these (diff from ${c.from}).`);
  } else if (s.changedOnly) {
    notes.push(`\`changed_only\`: this is a \`${s.github.eventName || 'local'}\` run, not a pull request, so every link was checked.`);
  }
  const head = (await git(ws, ['rev-parse', 'HEAD']))?.trim();
  const repositoryUrl = `${s.github.serverUrl}/${s.github.repository}`;
  // The names under which the checkout is this repository's files: links to blob/<one of them>/ are checked against it.
  const currentRefs = [...new Set(['HEAD', head, s.github.pullRequest?.headSha, ...s.github.refNames].filter((r): r is string => !!r))];
  // Fixes are asked for only where they can be offered: as suggestions on a pull request's changed lines.
  const suggestFixes = s.suggestions && changed !== undefined;
  const result = await checkDocuments(api, { ...s.api, keyed: s.api.key !== undefined }, { documents, paths, repositoryUrl, workspace: ws, currentRefs, siteRoot, changed, suggestFixes });
  return { report: result.report, notes: [...notes, ...result.notes], sourceUrl: head ? `${repositoryUrl}/blob/${head}/` : undefined, changed };
}
