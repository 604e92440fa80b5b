import type { GithubEnv } from './github-env.js';
import { list, text } from './inputs.js';
import { deploymentUrl } from './preview-inputs.js';

export interface Viewport {
  width: number;
  height: number;
}

/** The two deployments an action compares, with the paths and viewports compared on both. */
export interface ComparedSites {
  /** Origin (and optional base path) of the reference site, e.g. production. */
  baselineUrl: string;
  /** Origin (and optional base path) of the preview deployment. */
  previewUrl: string;
  /** @default ['/'] */
  paths: string[];
  /** @default [{ width: 1280, height: 720 }] */
  viewports: Viewport[];
}

/** `baseline_url`, `preview_url`, `paths` and `viewports`, as the screenshot-diff and preview-report actions take them. */
export function readComparedSites(github: GithubEnv): ComparedSites {
  const baselineUrl = siteUrl('baseline_url');
  // On a deployment_status event the deployment is the preview, unless the workflow names one.
  const previewUrl = siteUrl('preview_url', () => deploymentUrl(github, 'preview_url'));
  const paths = list('paths').map((p) => (p.startsWith('/') ? p : `/${p}`));
  const viewports = list('viewports').map(parseViewport);
  return {
    baselineUrl,
    previewUrl,
    paths: paths.length ? paths : ['/'],
    viewports: viewports.length ? viewports : [{ width: 1280, height: 720 }],
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

/** A required site URL; `example.com` is taken as https, a trailing slash dropped. */
function siteUrl(name: string, fallback?: () => string | undefined): string {
  const value = text(name) || fallback?.() || '';
  if (!value) throw new Error(`input ${name} is required${fallback ? ' (or run on a deployment_status event, whose deployment URL is the default)' : ''}`);
  try {
    const u = new URL(/^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`);
    return u.href.replace(/\/+$/, '');
  } catch {
    throw new Error(`input ${name} must be a URL, got ${JSON.stringify(value)}`);
  }
}
