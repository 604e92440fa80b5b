import * as cheerio from 'cheerio';

/** One check's outcome; `value` is what was observed. */
export interface SeoCheck {
  pass: boolean;
  value: unknown;
  message: string;
  /** Points this check is worth in the score. */
  weight: number;
  /** One sentence telling what to do; empty when the check passes. */
  recommendation: string;
}

export interface SeoPage {
  url: string;
  finalUrl: string;
  status: number;
  headers: Headers;
  html: string;
  bytes: number;
  robotsTxt: { reachable: boolean; status: number | null; sitemaps: string[] };
  sitemap: { reachable: boolean; url: string; status: number | null };
}

/** Weights (they sum to 100); the order is also the order of importance for ties. */
export const seoWeights = {
  http_status: 10,
  robots_directives: 10,
  title: 10,
  meta_description: 8,
  h1: 8,
  image_alt: 6,
  canonical: 6,
  https: 5,
  viewport: 5,
  open_graph: 5,
  heading_hierarchy: 4,
  lang: 4,
  page_weight: 4,
  twitter_card: 3,
  robots_txt: 3,
  sitemap: 3,
  structured_data: 3,
  link_text: 3,
} as const;

export type SeoCheckName = keyof typeof seoWeights;

const VAGUE_LINK_TEXT = new Set(['click here', 'here', 'read more', 'more', 'learn more', 'link', 'this', 'this link', 'go', 'details', 'continue', 'click']);
const MAX_PAGE_BYTES = 500 * 1024;

const check = (name: SeoCheckName, pass: boolean, value: unknown, message: string, recommendation: string): SeoCheck => ({
  pass,
  value,
  message,
  weight: seoWeights[name],
  recommendation: pass ? '' : recommendation,
});

/** Runs every check on a fetched or rendered page. */
export function runSeoChecks(page: SeoPage): Record<SeoCheckName, SeoCheck> {
  const $ = cheerio.load(page.html);
  const text = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
  const meta = (key: string) =>
    text($(`meta[name="${key}" i], meta[property="${key}" i]`).first().attr('content')) || undefined;
  const final = new URL(page.finalUrl);

  const title = text($('head title').first().text() || $('title').first().text());
  const description = meta('description') ?? '';
  const h1s = $('h1').map((_, el) => text($(el).text())).get();
  const levels = $('h1, h2, h3, h4, h5, h6').map((_, el) => Number((el as { tagName: string }).tagName.slice(1))).get();
  const skips: string[] = [];
  levels.reduce((prev, cur) => {
    if (prev && cur > prev + 1) skips.push(`h${prev} → h${cur}`);
    return cur;
  }, 0);
  const images = $('img');
  const noAlt = images.filter((_, el) => $(el).attr('alt') === undefined).map((_, el) => $(el).attr('src') ?? '(no src)').get();
  const canonicalHref = $('link[rel~="canonical" i]').first().attr('href')?.trim();
  const canonical = canonicalCheck(canonicalHref, final);
  const og = { 'og:title': meta('og:title'), 'og:description': meta('og:description'), 'og:image': meta('og:image'), 'og:url': meta('og:url') };
  const ogMissing = Object.entries(og).filter(([, v]) => !v).map(([k]) => k);
  const twitterCard = meta('twitter:card');
  const robotsMeta = [meta('robots'), meta('googlebot')].filter(Boolean).join(', ');
  const xRobots = page.headers.get('x-robots-tag') ?? '';
  const blocked = [...new Set(`${robotsMeta},${xRobots}`.toLowerCase().match(/\b(noindex|nofollow|none)\b/g) ?? [])];
  const lang = $('html').attr('lang')?.trim() ?? '';
  const viewport = meta('viewport') ?? '';
  const jsonLd = $('script[type="application/ld+json" i]').map((_, el) => $(el).text()).get();
  const badJsonLd = jsonLd.filter((s) => !parsesAsJson(s)).length;
  const vague = $('a[href]')
    .map((_, el) => text($(el).text()).toLowerCase())
    .get()
    .filter((t) => VAGUE_LINK_TEXT.has(t.replace(/[.!…»›→]+$/u, '').trim()));

  return {
    http_status: check('http_status', page.status >= 200 && page.status < 300, page.status,
      `the page answered HTTP ${page.status}`, `Serve the page with HTTP 200 (it answered ${page.status}); search engines drop pages that fail.`),
    robots_directives: check('robots_directives', blocked.length === 0, { meta_robots: robotsMeta || null, x_robots_tag: xRobots || null },
      blocked.length ? `indexing is restricted by ${blocked.join(', ')}` : 'no noindex or nofollow directive',
      `Remove ${blocked.join(', ')} from the robots meta tag and X-Robots-Tag header if the page should appear in search results.`),
    title: check('title', title.length >= 10 && title.length <= 60, title || null,
      title ? `title has ${title.length} characters (10–60 recommended)` : 'no <title>',
      title ? `Rewrite the title to 10–60 characters (now ${title.length}) so it shows in full in search results.` : 'Add a <title> of 10–60 characters that describes the page.'),
    meta_description: check('meta_description', description.length >= 50 && description.length <= 160, description || null,
      description ? `meta description has ${description.length} characters (50–160 recommended)` : 'no meta description',
      description ? `Rewrite the meta description to 50–160 characters (now ${description.length}).` : 'Add a meta description of 50–160 characters summarising the page.'),
    h1: check('h1', h1s.length === 1, h1s,
      `${h1s.length} h1 heading(s)`, h1s.length ? `Keep exactly one h1 per page (found ${h1s.length}).` : 'Add one h1 heading that states the page topic.'),
    image_alt: check('image_alt', noAlt.length === 0, { total: images.length, missing_alt: noAlt.length, examples: noAlt.slice(0, 5) },
      `${noAlt.length} of ${images.length} image(s) without alt`, `Add alt text to ${noAlt.length} image(s) (alt="" for decorative ones).`),
    canonical: check('canonical', canonical.pass, canonicalHref ?? null, canonical.message, canonical.recommendation),
    https: check('https', final.protocol === 'https:', final.protocol.replace(':', ''),
      final.protocol === 'https:' ? 'served over HTTPS' : 'served over plain HTTP', 'Serve the page over HTTPS and redirect HTTP to it.'),
    viewport: check('viewport', /width\s*=\s*device-width/i.test(viewport), viewport || null,
      viewport ? `viewport is "${viewport}"` : 'no viewport meta tag',
      'Add <meta name="viewport" content="width=device-width, initial-scale=1"> so the page works on phones.'),
    open_graph: check('open_graph', ogMissing.length === 0, og,
      ogMissing.length ? `missing ${ogMissing.join(', ')}` : 'og:title, og:description, og:image and og:url present',
      `Add the Open Graph tags ${ogMissing.join(', ')} so shared links show a title, text and image.`),
    heading_hierarchy: check('heading_hierarchy', skips.length === 0, { levels, skipped: skips },
      skips.length ? `heading levels skipped: ${skips.join(', ')}` : 'heading levels are not skipped',
      `Do not skip heading levels (${skips.join(', ')}); go down one level at a time.`),
    lang: check('lang', lang.length > 0, lang || null, lang ? `lang="${lang}"` : 'no lang attribute on <html>',
      'Add a lang attribute to <html> (e.g. lang="en") for search engines and screen readers.'),
    page_weight: check('page_weight', page.bytes <= MAX_PAGE_BYTES, page.bytes, `HTML is ${Math.round(page.bytes / 1024)} KB (500 KB at most)`,
      `Reduce the HTML from ${Math.round(page.bytes / 1024)} KB to under 500 KB (inline data, repeated markup).`),
    twitter_card: check('twitter_card', Boolean(twitterCard), twitterCard ?? null, twitterCard ? `twitter:card is ${twitterCard}` : 'no twitter:card',
      'Add <meta name="twitter:card" content="summary_large_image"> for rich previews on X/Twitter.'),
    robots_txt: check('robots_txt', page.robotsTxt.reachable, { status: page.robotsTxt.status, sitemaps: page.robotsTxt.sitemaps },
      page.robotsTxt.reachable ? 'robots.txt is reachable' : `robots.txt is not reachable${page.robotsTxt.status ? ` (HTTP ${page.robotsTxt.status})` : ''}`,
      'Publish a robots.txt at the site root (it may simply allow everything and name the sitemap).'),
    sitemap: check('sitemap', page.sitemap.reachable, { url: page.sitemap.url, status: page.sitemap.status },
      page.sitemap.reachable ? `sitemap found at ${page.sitemap.url}` : `no sitemap at ${page.sitemap.url}`,
      'Publish a sitemap.xml and name it in robots.txt with a Sitemap: line.'),
    structured_data: check('structured_data', jsonLd.length > 0 && badJsonLd === 0, { json_ld_blocks: jsonLd.length, invalid: badJsonLd },
      jsonLd.length === 0 ? 'no JSON-LD structured data' : badJsonLd ? `${badJsonLd} of ${jsonLd.length} JSON-LD block(s) do not parse` : `${jsonLd.length} JSON-LD block(s) parse`,
      badJsonLd ? `Fix the ${badJsonLd} JSON-LD block(s) that are not valid JSON.` : 'Add JSON-LD structured data (schema.org) describing the page.'),
    link_text: check('link_text', vague.length === 0, { vague_links: vague.length, examples: [...new Set(vague)].slice(0, 5) },
      vague.length ? `${vague.length} link(s) with non-descriptive text` : 'link texts are descriptive',
      `Replace non-descriptive link text (${[...new Set(vague)].slice(0, 3).map((t) => `"${t}"`).join(', ')}) with words that say where the link goes.`),
  };
}

function canonicalCheck(href: string | undefined, page: URL): { pass: boolean; message: string; recommendation: string } {
  if (!href) return { pass: false, message: 'no canonical link', recommendation: 'Add <link rel="canonical"> with the absolute URL of this page.' };
  if (!/^https?:\/\//i.test(href)) {
    return { pass: false, message: `canonical "${href}" is not an absolute URL`, recommendation: `Make the canonical URL absolute (https://${page.host}${href.startsWith('/') ? '' : '/'}${href}).` };
  }
  let target: URL;
  try {
    target = new URL(href);
  } catch {
    return { pass: false, message: `canonical "${href}" is not a valid URL`, recommendation: 'Fix the canonical link to a valid absolute URL.' };
  }
  const site = (h: string) => h.replace(/^www\./, '');
  if (site(target.hostname) !== site(page.hostname)) {
    return { pass: false, message: `canonical points to another site (${target.hostname})`, recommendation: `Point the canonical link at this site (${page.hostname}) unless the content really lives elsewhere.` };
  }
  return { pass: true, message: `canonical is ${href}`, recommendation: '' };
}

function parsesAsJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}
