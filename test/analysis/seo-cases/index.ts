import type { SeoCase } from './case.js';
import { crawlableAnchorCases, imageAltCases, linkTextCases } from './content-cases.js';
import { isCrawlableCases, robotsTxtCases } from './crawl-cases.js';
import { canonicalCases, hreflangCases, httpStatusCases, metaDescriptionCases, titleCases } from './head-cases.js';

/** Every case, by the id of the Lighthouse audit it is about. */
export const seoCaseTables: Record<string, SeoCase[]> = {
  'is-crawlable': isCrawlableCases,
  'robots-txt': robotsTxtCases,
  'http-status-code': httpStatusCases,
  'document-title': titleCases,
  'meta-description': metaDescriptionCases,
  canonical: canonicalCases,
  hreflang: hreflangCases,
  'link-text': linkTextCases,
  'crawlable-anchors': crawlableAnchorCases,
  'image-alt': imageAltCases,
};
