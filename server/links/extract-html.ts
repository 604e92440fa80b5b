import * as cheerio from 'cheerio';
import type { FoundLink, LinkResource } from './types.js';

export interface ExtractedPage {
  links: FoundLink[];
  /** Element ids and `<a name>` values, for fragment checks. */
  anchors: Set<string>;
}

const attrs: Array<[selector: string, attr: string, resource: LinkResource, navigational: boolean]> = [
  ['a[href]', 'href', 'page', true],
  ['area[href]', 'href', 'page', true],
  ['iframe[src]', 'src', 'frame', true],
  ['frame[src]', 'src', 'frame', true],
  ['img[src]', 'src', 'image', false],
  ['input[type=image][src]', 'src', 'image', false],
  ['script[src]', 'src', 'script', false],
  ['source[src]', 'src', 'media', false],
  ['video[src]', 'src', 'media', false],
  ['audio[src]', 'src', 'media', false],
  ['track[src]', 'src', 'media', false],
  ['video[poster]', 'poster', 'image', false],
  ['embed[src]', 'src', 'media', false],
  ['object[data]', 'data', 'media', false],
];

/** `link rel` values whose href is fetched by browsers (others, like `canonical`, are still checked as pages). */
const linkResource = (rel: string): LinkResource => {
  const r = rel.toLowerCase();
  if (r.includes('stylesheet')) return 'stylesheet';
  if (r.includes('icon') || r.includes('apple-touch')) return 'image';
  if (r.includes('preload') || r.includes('modulepreload') || r.includes('prefetch')) return 'other';
  return 'page';
};

const SKIPPED_LINK_RELS = /\b(dns-prefetch|preconnect)\b/i;
const CSS_URL = /url\(\s*(['"]?)([^'")]+)\1\s*\)/gi;

/**
 * Every link and resource of an HTML document, resolved per the URL standard against
 * `<base href>` (itself resolved against `pageUrl`). Non-http(s) schemes are returned
 * too; the caller skips them. Values that do not parse as URLs are dropped.
 */
export function extractHtml(html: string, pageUrl: string): ExtractedPage {
  const $ = cheerio.load(html);
  const baseHref = $('base[href]').first().attr('href');
  let base = pageUrl;
  if (baseHref) {
    try {
      base = new URL(baseHref.trim(), pageUrl).href;
    } catch {
      base = pageUrl; // an unparsable <base> is ignored by browsers too
    }
  }
  const links: FoundLink[] = [];
  const add = (raw: string | undefined, resource: LinkResource, navigational: boolean) => {
    const v = raw?.trim();
    if (!v) return;
    try {
      links.push({ url: new URL(v, base).href, resource, navigational });
    } catch {
      links.push({ url: v, resource, navigational: false });
    }
  };

  for (const [selector, attr, resource, nav] of attrs) {
    $(selector).each((_, el) => add($(el).attr(attr), resource, nav));
  }
  $('link[href]').each((_, el) => {
    const rel = $(el).attr('rel') ?? '';
    if (SKIPPED_LINK_RELS.test(rel)) return;
    add($(el).attr('href'), linkResource(rel), false);
  });
  $('img[srcset], source[srcset]').each((_, el) => {
    for (const candidate of ($(el).attr('srcset') ?? '').split(',')) {
      add(candidate.trim().split(/\s+/)[0], 'image', false);
    }
  });
  $('meta[http-equiv]').each((_, el) => {
    if (($(el).attr('http-equiv') ?? '').toLowerCase() !== 'refresh') return;
    const m = /url\s*=\s*['"]?([^'"]+)/i.exec($(el).attr('content') ?? '');
    if (m) add(m[1], 'page', true);
  });
  const cssTexts = [...$('style').map((_, el) => $(el).text()), ...$('[style]').map((_, el) => $(el).attr('style') ?? '')];
  for (const css of cssTexts) {
    for (const m of css.matchAll(CSS_URL)) add(m[2], 'image', false);
  }

  const anchors = new Set<string>();
  $('[id]').each((_, el) => {
    const id = $(el).attr('id');
    if (id) anchors.add(id);
  });
  $('a[name]').each((_, el) => {
    const name = $(el).attr('name');
    if (name) anchors.add(name);
  });
  return { links, anchors };
}
