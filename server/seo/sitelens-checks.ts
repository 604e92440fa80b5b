import type { CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { notApplicable, type Outcome, type SeoItem } from './check-result.js';
import { elementRef } from './element-ref.js';
import type { PageArtifacts } from './page-artifacts.js';

/** What our own checks read besides the parsed page. */
export interface SitelensInput {
  $: CheerioAPI;
  artifacts: PageArtifacts;
  bytes: number;
  /** The HTML was cut at the service's size limit: it is larger than `bytes`. */
  truncated: boolean;
  sitemap: { reachable: boolean; url: string; status: number | null };
}

const MAX_PAGE_BYTES = 500 * 1024;
const text = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
const at = (el: Element, reason: string): SeoItem => ({ reason, element: elementRef(el) });

/** The checks Lighthouse's SEO category does not have; their rules are ours. */
export function sitelensChecks({ $, artifacts: a, bytes, truncated, sitemap }: SitelensInput) {
  const size = `${truncated ? 'more than ' : ''}${Math.round(bytes / 1024)} KB`;
  const metaEl = (key: string) => $(`meta[name="${key}" i], meta[property="${key}" i]`).first();
  const meta = (key: string) => text(metaEl(key).attr('content')) || undefined;
  const final = new URL(a.finalUrl);
  return {
    title_length: titleLength(a),
    meta_description_length: descriptionLength(a),
    h1: h1($),
    https: ((): Outcome => ({
      pass: final.protocol === 'https:',
      value: final.protocol.replace(':', ''),
      message: final.protocol === 'https:' ? 'served over HTTPS' : 'served over plain HTTP',
      recommendation: 'Serve the page over HTTPS and redirect HTTP to it.',
      items: final.protocol === 'https:' ? [] : [{ reason: 'the final URL is not https', url: a.finalUrl }],
    }))(),
    viewport: viewport($),
    open_graph: openGraph(meta),
    heading_hierarchy: headingHierarchy($),
    lang: lang($, a),
    page_weight: {
      pass: bytes <= MAX_PAGE_BYTES,
      value: bytes,
      message: `HTML is ${size} (500 KB at most)${truncated ? '; reading stopped at this service\'s limit, so the checks saw only its start' : ''}`,
      recommendation: `Reduce the HTML from ${size} to under 500 KB (inline data, repeated markup).`,
      items: bytes <= MAX_PAGE_BYTES ? [] : [{ reason: `${size} of HTML`, url: a.finalUrl }],
    } satisfies Outcome,
    twitter_card: twitterCard(meta('twitter:card')),
    sitemap: {
      pass: sitemap.reachable,
      value: { url: sitemap.url, status: sitemap.status },
      message: sitemap.reachable ? `sitemap found at ${sitemap.url}` : `no sitemap at ${sitemap.url}`,
      recommendation: 'Publish a sitemap.xml and name it in robots.txt with a Sitemap: line.',
      items: sitemap.reachable ? [] : [{ reason: sitemap.status ? `HTTP ${sitemap.status} or not a sitemap` : 'unreachable', url: sitemap.url }],
    } satisfies Outcome,
    structured_data: structuredData($),
  };
}

function titleLength(a: PageArtifacts): Outcome {
  const title = a.title?.text.trim() ?? '';
  if (!a.title || !title) return notApplicable(null, 'no title to measure (see title)');
  const pass = title.length >= 10 && title.length <= 60;
  return {
    pass,
    value: title.length,
    message: `title has ${title.length} characters (10–60 recommended)`,
    recommendation: `Rewrite the title to 10–60 characters (now ${title.length}) so it shows in full in search results.`,
    items: pass ? [] : [{ reason: `${title.length} characters`, element: a.title.element, text: title }],
  };
}

function descriptionLength(a: PageArtifacts): Outcome {
  const meta = a.meta.find((m) => m.name === 'description');
  const description = text(meta?.content);
  if (!meta || !description) return notApplicable(null, 'no meta description to measure (see meta_description)');
  const pass = description.length >= 50 && description.length <= 160;
  return {
    pass,
    value: description.length,
    message: `meta description has ${description.length} characters (50–160 recommended)`,
    recommendation: `Rewrite the meta description to 50–160 characters (now ${description.length}).`,
    items: pass ? [] : [{ reason: `${description.length} characters`, element: meta.element }],
  };
}

function h1($: CheerioAPI): Outcome {
  const els = $('h1').toArray();
  const texts = els.map((el) => text($(el).text()));
  return {
    pass: els.length === 1,
    value: texts,
    message: `${els.length} h1 heading(s)`,
    recommendation: els.length ? `Keep exactly one h1 per page (found ${els.length}).` : 'Add one h1 heading that states the page topic.',
    items: els.length === 1 ? [] : els.length ? els.map((el) => at(el, 'one of several h1')) : [{ reason: 'no h1' }],
  };
}

function viewport($: CheerioAPI): Outcome {
  const el = $('meta[name="viewport" i]').first();
  const content = text(el.attr('content'));
  const pass = /width\s*=\s*device-width/i.test(content);
  return {
    pass,
    value: content || null,
    message: content ? `viewport is "${content}"` : 'no viewport meta tag',
    recommendation: 'Add <meta name="viewport" content="width=device-width, initial-scale=1"> so the page works on phones.',
    items: pass ? [] : [el.get(0) ? at(el.get(0) as Element, 'no width=device-width') : { reason: 'no viewport meta tag' }],
  };
}

function openGraph(meta: (key: string) => string | undefined): Outcome {
  const og = { 'og:title': meta('og:title'), 'og:description': meta('og:description'), 'og:image': meta('og:image'), 'og:url': meta('og:url') };
  const missing = Object.entries(og).filter(([, v]) => !v).map(([k]) => k);
  return {
    pass: missing.length === 0,
    value: og,
    message: missing.length ? `missing ${missing.join(', ')}` : 'og:title, og:description, og:image and og:url present',
    recommendation: `Add the Open Graph tags ${missing.join(', ')} so shared links show a title, text and image.`,
    items: missing.map((k) => ({ reason: `no <meta property="${k}">` })),
  };
}

function headingHierarchy($: CheerioAPI): Outcome {
  const headings = $('h1, h2, h3, h4, h5, h6').toArray();
  const levels = headings.map((el) => Number(el.name.slice(1)));
  const items: SeoItem[] = [];
  const skipped: string[] = [];
  headings.forEach((el, i) => {
    const prev = levels[i - 1];
    if (prev && levels[i] > prev + 1) {
      skipped.push(`h${prev} → h${levels[i]}`);
      items.push(at(el, `h${prev} → h${levels[i]}`));
    }
  });
  return {
    pass: skipped.length === 0,
    value: { levels, skipped },
    message: skipped.length ? `heading levels skipped: ${skipped.join(', ')}` : 'heading levels are not skipped',
    recommendation: `Do not skip heading levels (${skipped.join(', ')}); go down one level at a time.`,
    items,
  };
}

function lang($: CheerioAPI, a: PageArtifacts): Outcome {
  const value = $('html').attr('lang')?.trim() ?? '';
  return {
    pass: value.length > 0,
    value: value || null,
    message: value ? `lang="${value}"` : 'no lang attribute on <html>',
    recommendation: 'Add a lang attribute to <html> (e.g. lang="en") for search engines and screen readers.',
    items: value ? [] : [{ reason: 'no lang attribute on <html>', ...(a.root ? { element: a.root } : {}) }],
  };
}

function twitterCard(card: string | undefined): Outcome {
  return {
    pass: Boolean(card),
    value: card ?? null,
    message: card ? `twitter:card is ${card}` : 'no twitter:card',
    recommendation: 'Add <meta name="twitter:card" content="summary_large_image"> for rich previews on X/Twitter.',
    items: card ? [] : [{ reason: 'no <meta name="twitter:card">' }],
  };
}

function structuredData($: CheerioAPI): Outcome {
  const blocks = $('script[type="application/ld+json" i]').toArray();
  const bad = blocks.filter((el) => !parsesAsJson($(el).text()));
  return {
    pass: blocks.length > 0 && bad.length === 0,
    value: { json_ld_blocks: blocks.length, invalid: bad.length },
    message: blocks.length === 0 ? 'no JSON-LD structured data' : bad.length ? `${bad.length} of ${blocks.length} JSON-LD block(s) do not parse` : `${blocks.length} JSON-LD block(s) parse`,
    recommendation: bad.length ? `Fix the ${bad.length} JSON-LD block(s) that are not valid JSON.` : 'Add JSON-LD structured data (schema.org) describing the page.',
    items: blocks.length === 0 ? [{ reason: 'no <script type="application/ld+json">' }] : bad.map((el) => at(el, 'JSON-LD does not parse')),
  };
}

function parsesAsJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}
