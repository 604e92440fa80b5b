import { readGithubEnv, type GithubEnv } from '../../shared/src/github-env.js';
import { readComparedSites, type Viewport } from '../../shared/src/compared-sites.js';
import { apiInputs, bool, int, lines, num, text } from '../../shared/src/inputs.js';
import { defaultCommentKey } from '../../shared/src/sticky-comment.js';
import { readPreviewAccess, skipUnlessDeployed, type PreviewAccess } from '../../shared/src/preview-inputs.js';

/** Every input of the screenshot-diff action, parsed and checked once. */
export interface ScreenshotDiffSettings extends PreviewAccess {
  /** Origin (and optional base path) of the reference site, e.g. production. */
  baselineUrl: string;
  /** Origin (and optional base path) of the preview deployment. */
  previewUrl: string;
  /** Paths compared on both. @default ['/'] */
  paths: string[];
  /** @default [{ width: 1280, height: 720 }] */
  viewports: Viewport[];
  /** Gate: the highest changed-pixel ratio (0–1) a comparison may have. @default 0.001 */
  maxChangedRatio: number;
  /** pixelmatch colour threshold 0–1. @default 0.1 */
  threshold: number;
  /** @default true */
  fullPage: boolean;
  /** ms to wait before each capture. @default 0 */
  delay: number;
  /** CSS selectors hidden before capture (one per line). */
  hideSelectors: string[];
  apiUrl: string;
  apiKey?: string;
  /** The PR comment: on pull_request events, one per key. @default enabled, key from the job and what is compared */
  comment: { enabled: boolean; key: string };
  githubToken: string;
  /** Comparisons run at once. @default 3 */
  concurrency: number;
  github: GithubEnv;
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): ScreenshotDiffSettings {
  // First, before anything could be sent anywhere.
  const { apiUrl, apiKey } = apiInputs();
  const github = readGithubEnv(env);
  skipUnlessDeployed(github);
  const access = readPreviewAccess();
  const compared = readComparedSites(github);
  return {
    ...compared,
    maxChangedRatio: num('max_changed_ratio', { min: 0, max: 1 }) ?? 0.001,
    threshold: num('threshold', { min: 0, max: 1 }) ?? 0.1,
    fullPage: bool('full_page', true),
    delay: int('delay', { min: 0, max: 10_000 }) ?? 0,
    hideSelectors: lines('hide_selectors'),
    apiUrl,
    apiKey,
    // The baseline is the stable side (a preview URL may change with every deployment).
    comment: { enabled: bool('comment', true), key: text('comment_key') || defaultCommentKey(github.job, compared.baselineUrl) },
    githubToken: text('github_token'),
    concurrency: int('concurrency', { min: 1, max: 10 }) ?? 3,
    github,
    ...access,
  };
}
