import { readGithubEnv, type GithubEnv } from '../../shared/src/github-env.js';
import { bool, int, lines, list, num, text } from '../../shared/src/inputs.js';

export const defaultApiUrl = 'https://api.sitelens.dev';

export interface Viewport {
  width: number;
  height: number;
}

/** Every input of the screenshot-diff action, parsed and checked once. */
export interface ScreenshotDiffSettings {
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
  /** @default true */
  comment: boolean;
  githubToken: string;
  /** Comparisons run at once. @default 3 */
  concurrency: number;
  github: GithubEnv;
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): ScreenshotDiffSettings {
  const baselineUrl = text('baseline_url');
  const previewUrl = text('preview_url');
  if (!baselineUrl) throw new Error('input baseline_url is required');
  if (!previewUrl) throw new Error('input preview_url is required');
  const paths = list('paths');
  const viewports = list('viewports').map(parseViewport);
  return {
    baselineUrl: absolute('baseline_url', baselineUrl),
    previewUrl: absolute('preview_url', previewUrl),
    paths: paths.length ? paths.map((p) => (p.startsWith('/') ? p : `/${p}`)) : ['/'],
    viewports: viewports.length ? viewports : [{ width: 1280, height: 720 }],
    maxChangedRatio: num('max_changed_ratio', { min: 0, max: 1 }) ?? 0.001,
    threshold: num('threshold', { min: 0, max: 1 }) ?? 0.1,
    fullPage: bool('full_page', true),
    delay: int('delay', { min: 0, max: 10_000 }) ?? 0,
    hideSelectors: lines('hide_selectors'),
    apiUrl: text('api_url', defaultApiUrl),
    apiKey: text('api_key') || undefined,
    comment: bool('comment', true),
    githubToken: text('github_token'),
    concurrency: int('concurrency', { min: 1, max: 10 }) ?? 3,
    github: readGithubEnv(env),
  };
}

/** `1280x720` → { width: 1280, height: 720 }, within the API's bounds. */
export function parseViewport(v: string): Viewport {
  const m = /^(\d+)\s*[x×]\s*(\d+)$/i.exec(v);
  const width = Number(m?.[1]);
  const height = Number(m?.[2]);
  if (!m || width < 320 || width > 1920 || height < 240 || height > 1080) {
    throw new Error(`input viewports: ${JSON.stringify(v)} must be WIDTHxHEIGHT, width 320–1920, height 240–1080`);
  }
  return { width, height };
}

function absolute(name: string, value: string): string {
  try {
    const u = new URL(/^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`);
    return u.href.replace(/\/+$/, '');
  } catch {
    throw new Error(`input ${name} must be a URL, got ${JSON.stringify(value)}`);
  }
}
