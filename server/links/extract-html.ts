import { Parser } from 'htmlparser2';
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
 *
 * A streaming parse (htmlparser2 callbacks, no DOM): the crawler parses every page it
 * visits, and building a tree cost more than fetching a small page on loopback.
 */
export function extractHtml(html: string, pageUrl: string): ExtractedPage {
  const raw: Array<[value: string, resource: LinkResource, navigational: boolean]> = [];
  const anchors = new Set<string>();
  const css: string[] = [];
  let baseHref: string | undefined;
  let inStyle = false;

  const parser = new Parser(
    {
      onopentag(tag, a) {
        if (a.id) anchors.add(a.id);
        if (a.style) css.push(a.style);
        for (const [t, attr, resource, nav] of attrTable.get(tag) ?? []) {
          if (t === 'input' && (a.type ?? '').toLowerCase() !== 'image') continue;
          if (a[attr] !== undefined) raw.push([a[attr], resource, nav]);
        }
        if (tag === 'a' && a.name) anchors.add(a.name);
        if (a.srcset && (tag === 'img' || tag === 'source')) {
          for (const candidate of a.srcset.split(',')) raw.push([candidate.trim().split(/\s+/)[0], 'image', false]);
        }
        if (tag === 'link' && a.href !== undefined && !SKIPPED_LINK_RELS.test(a.rel ?? '')) raw.push([a.href, linkResource(a.rel ?? ''), false]);
        if (tag === 'meta' && (a['http-equiv'] ?? '').toLowerCase() === 'refresh') {
          const m = /url\s*=\s*['"]?([^'"]+)/i.exec(a.content ?? '');
          if (m) raw.push([m[1], 'page', true]);
        }
        if (tag === 'base' && a.href !== undefined && baseHref === undefined) baseHref = a.href;
        if (tag === 'style') {
          inStyle = true;
          css.push('');
        }
      },
      ontext(text) {
        if (inStyle) css[css.length - 1] += text;
      },
      onclosetag(tag) {
        if (tag === 'style') inStyle = false;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);

  // The first <base href> applies to every URL of the document, also those before it.
  let base = pageUrl;
  if (baseHref?.trim()) {
    try {
      base = new URL(baseHref.trim(), pageUrl).href;
    } catch {
      base = pageUrl; // an unparsable <base> is ignored by browsers too
    }
  }
  for (const text of css) {
    for (const m of text.matchAll(CSS_URL)) raw.push([m[2], 'image', false]);
  }
  const links: FoundLink[] = [];
  for (const [value, resource, navigational] of raw) {
    const v = value.trim();
    if (!v) continue;
    try {
      links.push({ url: new URL(v, base).href, resource, navigational });
    } catch {
      links.push({ url: v, resource, navigational: false });
    }
  }
  return { links, anchors };
}
