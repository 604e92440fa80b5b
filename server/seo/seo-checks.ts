import type { CheerioAPI } from 'cheerio';
import type { Outcome, SeoCheck, SeoSource } from './check-result.js';
import { canonical } from './lighthouse/canonical.js';
import { crawlableAnchors } from './lighthouse/crawlable-anchors.js';
import { documentTitle, httpStatusCode, metaDescription } from './lighthouse/document-basics.js';
import { hreflang } from './lighthouse/hreflang.js';
import { imageAlt } from './lighthouse/image-alt.js';
import { isCrawlable } from './lighthouse/is-crawlable.js';
import { linkText } from './lighthouse/link-text.js';
import { robotsTxtValid } from './lighthouse/robots-txt-valid.js';
import type { PageArtifacts } from './page-artifacts.js';
import type { RobotsTxt } from './robots-txt.js';
import { sitelensChecks } from './sitelens-checks.js';

/** The Lighthouse release whose SEO audits the `lighthouse` checks reproduce (and were compared with). */
export const LIGHTHOUSE_VERSION = '13.5.0';

interface CheckSpec {
  weight: number;
  source: SeoSource;
  lighthouse_audit: string | null;
  /** One line for the OpenAPI description. */
  rule: string;
}

const lighthouse = (weight: number, audit: string, rule: string): CheckSpec => ({ weight, source: 'lighthouse', lighthouse_audit: audit, rule });
const ours = (weight: number, rule: string): CheckSpec => ({ weight, source: 'sitelens', lighthouse_audit: null, rule });

/** Every check, its weight (they sum to 100) and where its rule comes from; heavier first breaks ties. */
export const seoCheckSpecs = {
  http_status: lighthouse(10, 'http-status-code', 'the page does not answer 400-599'),
  robots_directives: lighthouse(10, 'is-crawlable', 'not every crawler is blocked by noindex/none/unavailable_after (meta robots or crawler meta, X-Robots-Tag) or a robots.txt Disallow'),
  title: lighthouse(8, 'document-title', 'document.title is not empty'),
  h1: ours(7, 'exactly one h1'),
  meta_description: lighthouse(6, 'meta-description', '<meta name="description"> in <head> with text'),
  https: ours(6, 'final URL uses HTTPS'),
  canonical: lighthouse(5, 'canonical', 'canonical (head or Link header) resolves, is absolute, is one URL, not another hreflang alternate, not the root from a deeper page'),
  image_alt: lighthouse(5, 'image-alt', 'every visible <img> has alt, aria-label, aria-labelledby, title or a presentational role (axe rule)'),
  viewport: ours(5, 'viewport meta with width=device-width'),
  robots_txt: lighthouse(4, 'robots-txt', 'robots.txt does not answer 5xx (4xx, 429 included, means no rules: not applicable), and every line is valid'),
  open_graph: ours(4, 'og:title, og:description, og:image and og:url present'),
  link_text: lighthouse(3, 'link-text', 'no link to another page with non-descriptive text ("click here", "more", in the languages Lighthouse knows) or a bare URL'),
  hreflang: lighthouse(3, 'hreflang', 'hreflang alternates use a known language code (or x-default) and an absolute URL'),
  crawlable_anchors: lighthouse(3, 'crawlable-anchors', 'every <a> has an href a crawler can follow (not javascript:void(0), not missing, not file:)'),
  heading_hierarchy: ours(3, 'heading levels are not skipped'),
  lang: ours(3, '<html lang> present'),
  page_weight: ours(3, 'HTML at most 500 KB'),
  sitemap: ours(3, 'sitemap (from robots.txt or /sitemap.xml) answers 200 with a urlset or sitemapindex'),
  structured_data: ours(3, 'at least one JSON-LD block and all of them parse'),
  twitter_card: ours(2, 'twitter:card present'),
  title_length: ours(2, 'title of 10-60 characters'),
  meta_description_length: ours(2, 'meta description of 50-160 characters'),
} satisfies Record<string, CheckSpec>;

export type SeoCheckName = keyof typeof seoCheckSpecs;

export interface SeoInput {
  $: CheerioAPI;
  artifacts: PageArtifacts;
  robots: RobotsTxt;
  sitemaps: string[];
  sitemap: { reachable: boolean; url: string; status: number | null };
  bytes: number;
  /** The HTML was cut at the service's size limit. */
  truncated: boolean;
}

/** Runs every check on a fetched or rendered page. */
export function runSeoChecks(input: SeoInput): Record<SeoCheckName, SeoCheck> {
  const a = input.artifacts;
  const outcomes: Record<SeoCheckName, Outcome> = {
    http_status: httpStatusCode(a),
    robots_directives: isCrawlable(a, input.robots),
    title: documentTitle(a),
    meta_description: metaDescription(a),
    canonical: canonical(a),
    image_alt: imageAlt(a),
    robots_txt: robotsTxtValid(input.robots, input.sitemaps),
    link_text: linkText(a),
    hreflang: hreflang(a),
    crawlable_anchors: crawlableAnchors(a),
    ...sitelensChecks({ $: input.$, artifacts: a, bytes: input.bytes, truncated: input.truncated, sitemap: input.sitemap }),
  };
  const entries = (Object.keys(seoCheckSpecs) as SeoCheckName[]).map((name) => [name, finish(name, outcomes[name])] as const);
  return Object.fromEntries(entries) as Record<SeoCheckName, SeoCheck>;
}

function finish(name: SeoCheckName, o: Outcome): SeoCheck {
  const spec = seoCheckSpecs[name];
  return {
    pass: o.pass,
    value: o.value,
    message: o.message,
    weight: spec.weight,
    recommendation: o.pass ? '' : o.recommendation,
    source: spec.source,
    lighthouse_audit: spec.lighthouse_audit,
    applicable: o.applicable ?? true,
    items: o.pass ? [] : (o.items ?? []),
    warnings: o.warnings ?? [],
  };
}
