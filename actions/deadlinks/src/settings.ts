import { readGithubEnv, type GithubEnv } from '../../shared/src/github-env.js';
import { bool, int, oneOf, text } from '../../shared/src/inputs.js';

/** Placeholder of the hosted API; self-hosters set `api_url`. */
export const defaultApiUrl = 'https://api.sitelens.dev';

/** Every input of the dead-links action, parsed and checked once. */
export interface DeadlinksSettings {
  /** What to check: a site, or a repository's README (GitHub mode). */
  target: { kind: 'url'; url: string } | { kind: 'github'; repository: string; ref?: string };
  /** @default full */
  mode: 'full' | 'quick';
  maxPages?: number;
  maxDuration?: number;
  checkOnly?: 'internal' | 'external';
  /** Minimum health score for pass. */
  threshold?: number;
  /** Maximum broken links for pass. */
  maxBroken?: number;
  /** Crawl with Chromium in full mode. @default true */
  render: boolean;
  apiUrl: string;
  apiKey?: string;
  /** Sticky PR comment on pull_request events. @default true */
  comment: boolean;
  /** `::error` annotations. @default true */
  annotations: boolean;
  /** Most annotations emitted; GitHub shows 10 per step. @default 10 */
  maxAnnotations: number;
  githubToken: string;
  /** `gate`: fail when the gate (or, without one, any broken link) fails; `never`: report only. @default gate */
  failOn: 'gate' | 'never';
  github: GithubEnv;
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): DeadlinksSettings {
  const github = readGithubEnv(env);
  const url = text('url');
  const repo = text('github');
  if (url && repo) throw new Error('give either input url or input github, not both');
  const repository = repo || github.repository;
  if (!url && !/^[\w.-]+\/[\w.-]+$/.test(repository)) {
    throw new Error('input url or github (owner/repo) is required outside a GitHub repository');
  }
  const checkOnly = oneOf('check_only', ['all', 'internal', 'external'] as const, 'all');
  return {
    // On a pull request, this repository's README is checked as the PR changes it.
    target: url ? { kind: 'url', url } : { kind: 'github', repository, ref: text('ref') || (repository === github.repository ? github.pullRequestHeadSha : undefined) },
    mode: oneOf('mode', ['full', 'quick'] as const, 'full'),
    maxPages: int('max_pages', { min: 1, max: 50 }),
    maxDuration: int('max_duration', { min: 10, max: 120 }),
    checkOnly: checkOnly === 'all' ? undefined : checkOnly,
    threshold: int('threshold', { min: 0, max: 100 }),
    maxBroken: int('max_broken', { min: 0, max: 1_000_000 }),
    render: bool('render', true),
    apiUrl: text('api_url', defaultApiUrl),
    apiKey: text('api_key') || undefined,
    comment: bool('comment', true),
    annotations: bool('annotations', true),
    maxAnnotations: int('max_annotations', { min: 0, max: 1000 }) ?? 10,
    githubToken: text('github_token'),
    failOn: oneOf('fail_on', ['gate', 'never'] as const, 'gate'),
    github,
  };
}
