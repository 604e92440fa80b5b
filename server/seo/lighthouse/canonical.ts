import { notApplicable, type Outcome, type SeoItem } from '../check-result.js';
import type { LinkElement, PageArtifacts } from '../page-artifacts.js';

const where = (link: LinkElement): SeoItem => (link.element ? { reason: '', element: link.element } : { reason: '', header: link.header });

/**
 * Lighthouse's canonical: `rel=canonical` in `<head>` or a `Link` header (one in `<body>`
 * does not count). Fails on a URL that does not resolve, a relative URL, two different
 * URLs, a URL that is another `hreflang` alternate of this page, or the site root from a
 * deeper page. No canonical is not applicable; one on another domain passes, as Lighthouse
 * no longer flags it.
 */
export function canonical(a: PageArtifacts): Outcome {
  const unique = new Set<string>();
  const hreflangUrls = new Set<string>();
  let invalid: LinkElement | undefined;
  let relative: LinkElement | undefined;
  const canonicals: LinkElement[] = [];
  for (const link of a.links) {
    if (link.source === 'body') continue;
    if (link.rel === 'alternate' && link.href && link.hreflang) hreflangUrls.add(link.href);
    if (link.rel !== 'canonical' || !link.hrefRaw) continue;
    canonicals.push(link);
    if (!link.href || !URL.canParse(link.hrefRaw, 'https://example.com')) invalid = link;
    else if (!URL.canParse(link.hrefRaw)) relative = link;
    else unique.add(link.href);
  }
  const value = canonicals.length ? canonicals.map((l) => l.hrefRaw).join(', ') : null;
  const fail = (message: string, items: SeoItem[], recommendation: string): Outcome => ({ pass: false, value, message, items, recommendation });

  if (invalid) {
    return fail(`Invalid URL (${invalid.hrefRaw})`, [{ ...where(invalid), reason: 'Invalid URL', url: invalid.hrefRaw }], 'Fix the canonical link to a valid absolute URL of this page.');
  }
  if (relative) {
    return fail(`Is not an absolute URL (${relative.hrefRaw})`, [{ ...where(relative), reason: 'Is not an absolute URL', url: relative.hrefRaw }],
      `Make the canonical URL absolute (${relative.href}).`);
  }
  const urls = [...unique];
  if (urls.length === 0) return notApplicable(value, 'no canonical link');
  if (urls.length > 1) {
    return fail(`Multiple conflicting URLs (${urls.join(', ')})`,
      canonicals.map((l) => ({ ...where(l), reason: 'Multiple conflicting URLs', url: l.href ?? l.hrefRaw })),
      'Keep one canonical URL: the <link rel="canonical"> and the Link header must name the same page.');
  }
  const target = new URL(urls[0]);
  const page = new URL(a.documentUrl);
  const culprit = canonicals.filter((l) => l.href === urls[0]).map((l) => ({ ...where(l), url: urls[0] }));
  if (hreflangUrls.has(page.href) && hreflangUrls.has(target.href) && page.href !== target.href) {
    return fail(`Points to another \`hreflang\` location (${page.href})`, culprit.map((i) => ({ ...i, reason: 'Points to another hreflang location' })),
      'Point the canonical of each language version at itself, not at another language version.');
  }
  if (target.origin === page.origin && target.pathname === '/' && page.pathname !== '/') {
    return fail("Points to the domain's root URL (the homepage), instead of an equivalent page of content",
      culprit.map((i) => ({ ...i, reason: "Points to the domain's root URL" })),
      'Point the canonical at the equivalent page of content, not at the homepage.');
  }
  return { pass: true, value, message: `canonical is ${urls[0]}`, recommendation: '' };
}
