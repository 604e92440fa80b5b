import * as cheerio from 'cheerio';
import type { Element } from 'domhandler';
import type { FoundLink, LinkResource } from './types.js';

export interface ExtractedPage {
  links: FoundLink[];
  /** Element ids and `<a name>` values, for fragment checks. */
  anchors: Set<string>;
}

/** Tag → attributes holding a URL: [tag, attribute, what it points at, followed by a crawler]. */
const attrList: Array<[tag: string, attr: string, resource: LinkResource, navigational: boolean]> = [
  ['a', 'href', 'page', true],
  ['area', 'href', 'page', true],
  ['iframe', 'src', 'frame', true],
  ['frame', 'src', 'frame', true],
  ['img', 'src', 'image', false],
  ['input', 'src', 'image', false],
  ['script', 'src', 'script', false],
  ['source', 'src', 'media', false],
  ['video', 'src', 'media', false],
  ['audio', 'src', 'media', false],
  ['track', 'src', 'media', false],
  ['video', 'poster', 'image', false],
  ['embed', 'src', 'media', false],
  ['object', 'data', 'media', false],
];
const attrTable = new Map<string, typeof attrList>();
for (const row of attrList) attrTable.set(row[0], [...(attrTable.get(row[0]) ?? []), row]);

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

  // One pass over the elements; twenty selector queries cost more than parsing a small page.
  const anchors = new Set<string>();
  const css: string[] = [];
  $('*').each((_, node) => {
    if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') return;
    const el = node as Element;
    const a = el.attribs;
    const tag = el.name.toLowerCase();
    if (a.id) anchors.add(a.id);
    if (a.style) css.push(a.style);
    for (const [t, attr, resource, nav] of attrTable.get(tag) ?? []) {
      if (t === 'input' && (a.type ?? '').toLowerCase() !== 'image') continue;
      if (a[attr] !== undefined) add(a[attr], resource, nav);
    }
    if (tag === 'a' && a.name) anchors.add(a.name);
    if (a.srcset && (tag === 'img' || tag === 'source')) {
      for (const candidate of a.srcset.split(',')) add(candidate.trim().split(/\s+/)[0], 'image', false);
    }
    if (tag === 'link' && a.href !== undefined && !SKIPPED_LINK_RELS.test(a.rel ?? '')) add(a.href, linkResource(a.rel ?? ''), false);
    if (tag === 'meta' && (a['http-equiv'] ?? '').toLowerCase() === 'refresh') {
      const m = /url\s*=\s*['"]?([^'"]+)/i.exec(a.content ?? '');
      if (m) add(m[1], 'page', true);
    }
    if (tag === 'style') css.push($(el).text());
  });
  for (const text of css) {
    for (const m of text.matchAll(CSS_URL)) add(m[2], 'image', false);
  }
  return { links, anchors };
}
