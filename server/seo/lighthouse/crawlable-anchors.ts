import type { Outcome, SeoItem } from '../check-result.js';
import type { AnchorElement, PageArtifacts } from '../page-artifacts.js';

/** Attributes the HTML spec allows on an `<a>` only together with `href`. */
const HREF_ATTRIBUTES = ['target', 'download', 'ping', 'rel', 'hreflang', 'type', 'referrerpolicy'];
const JAVASCRIPT_VOID = /javascript:void(\(|)0(\)|)/;

/**
 * Why a crawler cannot follow this anchor, by Lighthouse's crawlable-anchors rules;
 * undefined when it can. A `role` opts out, `mailto:` and `<a id>` targets are fine,
 * `file:` never is; a `name` saves it; an `<a>` with neither href nor the attributes
 * that need one is a placeholder, fine unless it has event listeners (a link made of
 * script); then it needs an href that resolves and is not `javascript:void(0)`.
 */
function uncrawlable(anchor: AnchorElement, pageUrl: string): string | undefined {
  const rawHref = anchor.rawHref.replace(/\s/g, '');
  if (anchor.role.trim().length > 0) return undefined;
  if (rawHref.startsWith('mailto:')) return undefined;
  if (rawHref === '' && anchor.id) return undefined;
  if (rawHref.startsWith('file:')) return 'href is a file: URL';
  if (anchor.name.trim().length > 0) return undefined;
  if (!anchor.attributeNames.includes('href') && !HREF_ATTRIBUTES.some((attr) => anchor.attributeNames.includes(attr))) {
    return anchor.hasListeners ? 'no href, only event handlers (a crawler cannot follow script)' : undefined;
  }
  if (anchor.href === '') return 'no href to follow';
  if (JAVASCRIPT_VOID.test(rawHref)) return 'href is javascript:void(0)';
  return URL.canParse(rawHref, pageUrl) ? undefined : 'href is not a valid URL';
}

/** Lighthouse's crawlable-anchors: every `<a>` must be one a search engine can follow. */
export function crawlableAnchors(a: PageArtifacts): Outcome {
  const items: SeoItem[] = a.anchors.flatMap((anchor) => {
    const reason = uncrawlable(anchor, a.finalUrl);
    return reason ? [{ reason, element: anchor.element, url: anchor.rawHref }] : [];
  });
  return {
    pass: items.length === 0,
    value: { anchors: a.anchors.length, uncrawlable: items.length },
    message: items.length ? `${items.length} of ${a.anchors.length} link(s) are not crawlable` : 'links are crawlable',
    recommendation: 'Give every link a real href (a URL, not javascript:void(0) or only an onclick handler) so search engines can follow it.',
    items,
  };
}
