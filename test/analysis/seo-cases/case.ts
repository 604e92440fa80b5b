import type { FixtureHandler } from '../support/fixture-site.js';

/** Lighthouse's verdict on an audit: score 1, score 0, or not applicable. */
export type Verdict = 'pass' | 'fail' | 'na';

/** What a failing item must name; every given field must match one item. */
export interface Names {
  reason?: string;
  selector?: string;
  snippet?: string;
  line?: number;
  content?: string;
  header?: string;
  url?: string;
  text?: string;
}

/**
 * One page (with its robots.txt and headers) and the verdict Lighthouse 13.5.0 gives on
 * one audit, written from that audit's rules and test cases (and checked by running that
 * Lighthouse on every page). Each page paints some text: Lighthouse refuses a page that
 * paints nothing (NO_FCP). `{origin}` in the HTML, headers
 * and robots.txt stands for the test site's origin.
 */
export interface SeoCase {
  name: string;
  /** The /api/seo check that reproduces the audit. */
  check:
    | 'http_status'
    | 'robots_directives'
    | 'title'
    | 'meta_description'
    | 'canonical'
    | 'image_alt'
    | 'robots_txt'
    | 'link_text'
    | 'hreflang'
    | 'crawlable_anchors';
  html?: string;
  /** Path the audit asks for. @default '/page' */
  path?: string;
  status?: number;
  headers?: Record<string, string | string[]>;
  /** robots.txt: a body served 200, or a status and body, or a dropped connection. Absent: 404. */
  robots?: string | { status: number; body?: string } | 'dropped';
  /** More routes of the site (redirect targets). */
  routes?: Record<string, FixtureHandler>;
  expect: Verdict;
  /**
   * What fetch mode answers when it cannot agree: Lighthouse always runs the page's
   * scripts, fetch mode reads the served HTML. Counted as a disagreement.
   */
  fetchExpect?: Verdict;
  names?: Names;
  /** Warnings must contain this. */
  warns?: string;
}

/** A page from head and body markup. */
export const doc = (head: string, body = '<p>Oak tables made by hand</p>', htmlAttrs = '') =>
  `<!doctype html><html${htmlAttrs ? ` ${htmlAttrs}` : ''}><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;

/** A page whose body holds the given markup, with a descriptive title. */
export const body = (markup: string, htmlAttrs = '') => doc('<title>Oak furniture workshop</title>', markup, htmlAttrs);
