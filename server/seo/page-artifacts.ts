import type { CheerioAPI } from 'cheerio';
import { isTag, type Element } from 'domhandler';
import LinkHeader from 'http-link-header';
import type { ElementRef } from './check-result.js';
import { elementRef } from './element-ref.js';
import type { PageSnapshot, RawHeader } from './page-snapshot.js';
import { isHiddenStatically, visibleTextStatically } from './static-visibility.js';

/**
 * What the Lighthouse-equal audits read from a page, shaped like Lighthouse's artifacts
 * (MetaElements, LinkElements, AnchorElements, the images axe's image-alt rule selects).
 * One gatherer serves both modes: fetch mode reads the served HTML; render mode reads the
 * DOM Chromium serialised after scripts ran, plus what only the live page knows (rendered
 * link text, hidden images).
 */
export interface PageArtifacts {
  documentUrl: string;
  finalUrl: string;
  status: number;
  headers: RawHeader[];
  /** `<html>` and `<head>`, to name what is missing from them. */
  root: ElementRef | null;
  head: ElementRef | null;
  /** `document.title` (the first HTML `<title>`, whitespace collapsed); null without one. */
  title: { text: string; element: ElementRef } | null;
  meta: MetaElement[];
  links: LinkElement[];
  anchors: AnchorElement[];
  images: ImageElement[];
  /** `Link` headers that did not parse. */
  warnings: string[];
}

/** `<meta>` in `<head>`; `name` lower-cased as Lighthouse does. */
export interface MetaElement {
  name: string;
  content: string;
  element: ElementRef;
}

export interface LinkElement {
  /** Lower-cased, otherwise as written (`"alternate stylesheet"` stays two words). */
  rel: string;
  /** Resolved URL; '' without an href, null when it does not resolve (headers). */
  href: string | null;
  hrefRaw: string;
  hreflang: string;
  source: 'head' | 'body' | 'headers';
  element?: ElementRef;
  /** The header line, for `source: 'headers'`. */
  header?: string;
}

export interface AnchorElement {
  /** What `a.href` returns: resolved, the raw value when it does not parse, '' without href. */
  href: string;
  rawHref: string;
  name: string;
  role: string;
  id: string;
  rel: string;
  text: string;
  /** Language of the link text as Lighthouse's gatherer finds it. */
  textLang: string | undefined;
  attributeNames: string[];
  /** The anchor has event listeners of its own (fetch mode: an `on…` attribute). */
  hasListeners: boolean;
  element: ElementRef;
}

export interface ImageElement {
  attribs: Record<string, string>;
  hidden: boolean;
  /** Text of the elements `aria-labelledby` points to. */
  labelledbyText: string;
  element: ElementRef;
}

const HTML_NS = 'http://www.w3.org/1999/xhtml';
const isHtml = (el: Element) => el.namespace === HTML_NS;

export function gatherArtifacts(snapshot: PageSnapshot, $: CheerioAPI): PageArtifacts {
  // querySelectorAll does not look into <template> contents; cheerio's parse tree does.
  const select = (selector: string) => $(selector).toArray().filter((el): el is Element => isTag(el) && $(el).closest('template').length === 0);
  const base = baseUrl($, snapshot.finalUrl);
  const warnings: string[] = [];

  const titleEl = select('title').find(isHtml);
  const meta = select('head meta').map((el) => ({
    name: (el.attribs.name ?? '').toLowerCase(),
    content: el.attribs.content ?? '',
    element: elementRef(el),
  }));
  const domLinks: LinkElement[] = select('link')
    .filter(isHtml)
    .map((el) => ({
      rel: (el.attribs.rel ?? '').toLowerCase(),
      href: el.attribs.href === undefined ? '' : resolve(el.attribs.href, base) ?? el.attribs.href,
      hrefRaw: el.attribs.href ?? '',
      hreflang: el.attribs.hreflang ?? '',
      source: $(el).closest('head').length ? 'head' : 'body',
      element: elementRef(el),
    }));
  const headerLinks = snapshot.headers
    .filter((h) => h.name.toLowerCase() === 'link')
    .flatMap((h) => linkHeaderRefs(h, snapshot.finalUrl, warnings));

  const langOf = textLanguage($, select);
  const anchorEls = select('a');
  const live = snapshot.live?.anchorTexts.length === anchorEls.length ? snapshot.live : undefined;
  const anchors = anchorEls.map((el, i) => {
    const html = isHtml(el);
    const rawHref = el.attribs.href ?? '';
    return {
      // An SVG <a> resolves against the page URL, not <base> (Lighthouse reads href.baseVal).
      href: html ? (el.attribs.href === undefined ? '' : resolve(rawHref, base) ?? rawHref) : resolve(rawHref, snapshot.finalUrl) ?? '',
      rawHref,
      name: html ? el.attribs.name ?? '' : '',
      role: el.attribs.role ?? '',
      id: el.attribs.id ?? '',
      rel: html ? el.attribs.rel ?? '' : '',
      text: live?.anchorTexts[i] ?? (html ? visibleTextStatically($, el) : $(el).text()),
      textLang: langOf(el),
      attributeNames: Object.keys(el.attribs),
      hasListeners: live?.anchorListeners[i] ?? Object.keys(el.attribs).some((name) => /^on[a-z]+$/.test(name)),
      element: elementRef(el),
    };
  });

  const imageEls = select('img');
  const liveHidden = snapshot.live?.hiddenImages.length === imageEls.length ? snapshot.live.hiddenImages : undefined;
  const images = imageEls.map((el, i) => ({
    attribs: { ...el.attribs },
    hidden: liveHidden?.[i] ?? isHiddenStatically($, el),
    labelledbyText: labelledbyText($, el),
    element: elementRef(el),
  }));

  return {
    documentUrl: snapshot.documentUrl,
    finalUrl: snapshot.finalUrl,
    status: snapshot.status,
    headers: snapshot.headers,
    root: refOf(select('html')[0]),
    head: refOf(select('head')[0]),
    title: titleEl ? { text: documentTitle($, titleEl), element: elementRef(titleEl) } : null,
    meta,
    links: [...domLinks, ...headerLinks],
    anchors,
    images,
    warnings,
  };
}

const refOf = (el: Element | undefined) => (el ? elementRef(el) : null);

const resolve = (href: string, base: string): string | null => URL.parse(href, base)?.href ?? null;

/** The document base URL: the first `<base href>`, resolved against the page URL. */
function baseUrl($: CheerioAPI, pageUrl: string): string {
  const href = $('base[href]').first().attr('href');
  return (href !== undefined && resolve(href, pageUrl)) || pageUrl;
}

/** `document.title`: the child text of the first HTML `<title>`, ASCII whitespace stripped and collapsed. */
function documentTitle($: CheerioAPI, el: Element): string {
  const text = el.children.map((c) => (c.type === 'text' ? $(c).text() : '')).join('');
  return text.replace(/[\t\n\f\r ]+/g, ' ').replace(/^ | $/g, '');
}

function linkHeaderRefs(h: RawHeader, finalUrl: string, warnings: string[]): LinkElement[] {
  try {
    return LinkHeader.parse(h.value).refs.map((ref) => ({
      rel: (ref.rel ?? '').toLowerCase(),
      href: resolve(ref.uri, finalUrl),
      hrefRaw: ref.uri ?? '',
      hreflang: typeof ref.hreflang === 'string' ? ref.hreflang : '',
      source: 'headers' as const,
      header: `${h.name}: ${h.value}`,
    }));
  } catch (err) {
    warnings.push(`Error parsing \`link\` header (${(err as Error).message}): \`${h.value.slice(0, 100)}\``);
    return [];
  }
}

/**
 * Lighthouse's `textLang`: the page's one `lang` when only `<html>` or `<body>` carries one;
 * else the language of the link's text nodes (none when they mix languages), else the
 * nearest `lang` around the link.
 */
function textLanguage($: CheerioAPI, select: (s: string) => Element[]) {
  const langElements = select('[lang]');
  const single =
    langElements.length === 1 && ['html', 'body'].includes(langElements[0].name) ? langElements[0].attribs.lang : undefined;
  const closestLang = (el: Element) => $(el).closest('[lang]').attr('lang');
  return (anchor: Element): string | undefined => {
    if (single !== undefined) return single;
    let lang: string | undefined;
    for (const child of $(anchor).find('*').toArray()) {
      if (!$(child).text()) continue;
      const childLang = closestLang(child);
      if (!childLang) continue;
      if (lang === undefined) lang = childLang;
      else if (lang.split('-')[0] !== childLang.split('-')[0]) return undefined;
    }
    return lang ?? closestLang(anchor);
  };
}

/** axe's `arialabelledbyText`, reduced to what names an image: each target's label, alt or text. */
function labelledbyText($: CheerioAPI, el: Element): string {
  const ids = (el.attribs['aria-labelledby'] ?? '').trim().split(/\s+/).filter(Boolean);
  return ids
    .map((id) => {
      const target = $('[id]').toArray().find((t) => t.attribs.id === id);
      if (!target) return '';
      return target.attribs['aria-label']?.trim() || (target.name === 'img' ? target.attribs.alt ?? '' : $(target).text());
    })
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}
