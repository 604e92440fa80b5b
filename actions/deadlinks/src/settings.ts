import path from 'node:path';
import { readGithubEnv, type GithubEnv } from '../../shared/src/github-env.js';
import { apiInputs, bool, int, lines, list, num, oneOf, text } from '../../shared/src/inputs.js';
import { defaultCommentKey } from '../../shared/src/sticky-comment.js';
import { deploymentUrl, readPreviewAccess, skipUnlessDeployed, type PreviewAccess } from '../../shared/src/preview-inputs.js';
import { readPublishInputs, type PublishInputs } from '../../shared/src/upload-step.js';
import type { Gate } from '../../../server/links/report.js';
import { compileUrlPattern } from '../../../server/links/url-pattern.js';

/** What to check. */
export type Target =
  | { kind: 'site'; url: string; mode: 'full' | 'quick'; maxPages?: number; render: boolean }
  /** Files of the checkout matching globs; `siteRoot`: a built site's folder among them. */
  | { kind: 'files'; patterns: string[]; siteRoot?: string }
  /** This repository's README: from the checkout when it has one, else through GitHub mode. */
  | { kind: 'readme' }
  /** Another repository's README (GitHub mode, through the public GitHub API). */
  | { kind: 'github'; repository: string; ref?: string };

/** Options every mode passes to the API. */
export interface ApiOptions {
  /** URL regexes not checked. */
  exclude: string[];
  /** Extra status codes counted as working. */
  accept: number[];
  checkOnly?: 'internal' | 'external';
  fragments?: 'warn' | 'error' | 'ignore';
  maxDuration?: number;
  /** Repository files: no network at all; links that need it are listed as not checked. @default false */
  offline: boolean;
  /** Repository files: list reference definitions that render nothing as warnings. */
  unusedDefinitions?: 'ignore' | 'warn';
}

/** Every input of the dead-links action, parsed and checked once. */
export interface DeadlinksSettings extends PreviewAccess {
  target: Target;
  /** Only links on lines a pull request adds or changes (repository files). @default false */
  changedOnly: boolean;
  api: ApiOptions & { url: string; key?: string };
  gate: Gate;
  /** `gate`: fail when the gate (or, without one, any broken link) fails; `never`: report only. @default gate */
  failOn: 'gate' | 'never';
  /** The PR comment: on pull_request events, one per key. @default enabled, key from the job and the target */
  comment: { enabled: boolean; key: string };
  /** Annotations on the file, line and column (or the page). @default true */
  annotations: boolean;
  /** Most annotations emitted; GitHub shows 10 per step. @default 10 */
  maxAnnotations: number;
  /** Upload the JSON report as a workflow artifact. @default true */
  artifact: boolean;
  /** Workspace-relative path of a SARIF 2.1.0 file of the report, for code scanning; undefined: none. @default none */
  sarif?: string;
  /** changed_only on pull requests: one review with GitHub suggestion blocks for links with a known fix. @default true */
  suggestions: boolean;
  githubToken: string;
  github: GithubEnv;
  /** The publish step's inputs from the steps before it. */
  publish: PublishInputs;
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): DeadlinksSettings {
  // First, before anything could be sent anywhere.
  const { apiUrl, apiKey } = apiInputs();
  const access = readPreviewAccess();
  const github = readGithubEnv(env);
  skipUnlessDeployed(github);
  const target = readTarget(github);
  if (target.kind !== 'site' && (access.wait || access.targetHeaders)) {
    throw new Error(`input ${access.targetHeaders ? 'target_headers' : 'wait_for_url'} applies to a site (url, or the deployment of a deployment_status event), not to ${target.kind === 'files' ? 'repository files' : 'a README'}`);
  }
  const checkOnly = oneOf('check_only', ['all', 'internal', 'external'] as const, 'all');
  const fragments = text('fragments');
  const offline = bool('offline', false);
  if (offline && (target.kind === 'site' || target.kind === 'github')) {
    throw new Error(`input offline checks this repository's files without network; it cannot check ${target.kind === 'site' ? 'a site (url)' : 'another repository (github)'}`);
  }
  return {
    target,
    changedOnly: bool('changed_only', false),
    api: {
      url: apiUrl,
      key: apiKey,
      exclude: lines('exclude').map(checkRegex),
      accept: list('accept').map(checkStatus),
      checkOnly: checkOnly === 'all' ? undefined : checkOnly,
      fragments: fragments ? oneOf('fragments', ['warn', 'error', 'ignore'] as const, 'warn') : undefined,
      maxDuration: int('max_duration', { min: 10, max: 120 }),
      offline,
      unusedDefinitions: bool('unused_definitions', false) ? 'warn' : undefined,
    },
    gate: { threshold: num('threshold', { min: 0, max: 100 }), maxBroken: int('max_broken', { min: 0, max: 1_000_000 }) },
    failOn: oneOf('fail_on', ['gate', 'never'] as const, 'gate'),
    comment: { enabled: bool('comment', true), key: text('comment_key') || defaultCommentKey(github.job, targetIdentity(target)) },
    annotations: bool('annotations', true),
    maxAnnotations: int('max_annotations', { min: 0, max: 1000 }) ?? 10,
    artifact: bool('artifact', true),
    sarif: sarifPath(text('sarif')),
    suggestions: bool('suggestions', true),
    githubToken: text('github_token'),
    github,
    publish: readPublishInputs(env),
    ...access,
  };
}

function readTarget(github: GithubEnv): Target {
  const repo = text('github');
  const files = lines('files');
  // On a deployment_status event with no other target, the deployment is the site checked.
  const url = text('url') || (!repo && !files.length ? (deploymentUrl(github, 'url') ?? '') : '');
  const given = [url && 'url', repo && 'github', files.length && 'files'].filter(Boolean);
  if (given.length > 1) throw new Error(`give one of the inputs url, github and files, not ${given.join(' and ')}`);
  if (url) {
    return { kind: 'site', url, mode: oneOf('mode', ['full', 'quick'] as const, 'full'), maxPages: int('max_pages', { min: 1, max: 50 }), render: bool('render', true) };
  }
  if (files.length) return { kind: 'files', patterns: files, siteRoot: text('site_root').replace(/^\.\//, '').replace(/\/+$/, '') || undefined };
  const repository = repo || github.repository;
  if (!/^[\w.-]+\/[\w.-]+$/.test(repository)) throw new Error('input url, github (owner/repo) or files is required outside a GitHub repository');
  const ref = text('ref') || undefined;
  if (repository.toLowerCase() === github.repository.toLowerCase() && !ref) return { kind: 'readme' };
  return { kind: 'github', repository, ref };
}

/** What the step checks, for the default comment key. */
function targetIdentity(target: Target): string {
  if (target.kind === 'site') return `site:${target.url}`;
  if (target.kind === 'files') return `files:${target.patterns.join('\n')}`;
  if (target.kind === 'github') return `github:${target.repository}@${target.ref ?? ''}`;
  return 'readme';
}

/** Where `sarif` writes: `true` the default file, `false`/empty none, else a path inside the workspace. */
function sarifPath(value: string): string | undefined {
  if (!value || value === 'false') return undefined;
  if (value === 'true') return 'sitelens-deadlinks.sarif';
  const normal = path.posix.normalize(value.replace(/\\/g, '/')).replace(/^\.\//, '');
  if (path.posix.isAbsolute(normal) || normal === '..' || normal.startsWith('../') || normal.endsWith('/')) {
    throw new Error(`input sarif must be true, false or a file path inside the workspace (e.g. results/links.sarif), got ${JSON.stringify(value)}`);
  }
  return normal;
}

/** The service's own compiler, so a pattern it would refuse fails here before any call. */
function checkRegex(source: string): string {
  try {
    compileUrlPattern(source);
  } catch (err) {
    throw new Error(`input exclude: ${JSON.stringify(source)} is not a valid RE2 regular expression (${(err as Error).message})`);
  }
  return source;
}

function checkStatus(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 100 || n > 599) throw new Error(`input accept: ${JSON.stringify(v)} must be an HTTP status code (100–599)`);
  return n;
}
