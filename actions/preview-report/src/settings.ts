import { compareChecks, type CompareCheck } from '../../../server/compare/types.js';
import { readGithubEnv, type GithubEnv } from '../../shared/src/github-env.js';
import { apiInputs, bool, list, oneOf, text } from '../../shared/src/inputs.js';
import { defaultCommentKey } from '../../shared/src/sticky-comment.js';
import { readPreviewAccess, skipUnlessDeployed, type PreviewAccess } from '../../shared/src/preview-inputs.js';
import { readPublishInputs, type PublishInputs } from '../../shared/src/upload-step.js';
import { readComparedSites, type Viewport } from '../../shared/src/compared-sites.js';

/** Every input of the preview-report action, parsed and checked once. */
export interface PreviewReportSettings extends PreviewAccess {
  /** Production: origin, optionally with a base path. */
  baselineUrl: string;
  previewUrl: string;
  /** Paths compared on both. @default ['/'] */
  paths: string[];
  /** @default every check */
  checks: CompareCheck[];
  /** Viewports of the visual check. @default [{ width: 1280, height: 720 }] */
  viewports: Viewport[];
  /** `regression`: the step fails when the preview makes anything worse; `never`: report only. @default regression */
  failOn: 'regression' | 'never';
  apiUrl: string;
  apiKey?: string;
  /** @default enabled, key from the job and the baseline */
  comment: { enabled: boolean; key: string };
  /** Upload the JSON report as a workflow artifact. @default true */
  artifact: boolean;
  githubToken: string;
  github: GithubEnv;
  /** The publish step's inputs from the steps before it. */
  publish: PublishInputs;
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): PreviewReportSettings {
  // First, before anything could be sent anywhere.
  const { apiUrl, apiKey } = apiInputs();
  const github = readGithubEnv(env);
  skipUnlessDeployed(github);
  const access = readPreviewAccess();
  const compared = readComparedSites(github);
  const checks = list('checks');
  for (const c of checks) {
    if (!(compareChecks as readonly string[]).includes(c)) throw new Error(`input checks: ${JSON.stringify(c)} is not a check; use ${compareChecks.join(', ')}`);
  }
  return {
    ...compared,
    checks: checks.length ? [...new Set(checks as CompareCheck[])] : [...compareChecks],
    failOn: oneOf('fail_on', ['regression', 'never'] as const, 'regression'),
    apiUrl,
    apiKey,
    // The baseline is the stable side (a preview URL changes with every deployment).
    comment: { enabled: bool('comment', true), key: text('comment_key') || defaultCommentKey(github.job, compared.baselineUrl) },
    artifact: bool('artifact', true),
    githubToken: text('github_token'),
    github,
    publish: readPublishInputs(env),
    ...access,
  };
}
