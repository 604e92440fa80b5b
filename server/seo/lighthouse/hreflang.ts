import axe from 'axe-core';
import { parse as parseBcp47 } from 'bcp-47';
import type { Outcome, SeoItem } from '../check-result.js';
import type { PageArtifacts } from '../page-artifacts.js';

const NO_LANGUAGE = 'x-default';

/** axe-core has `isValidLang` on its utils at run time; its typings leave it out. */
const axeUtils = axe.utils as typeof axe.utils & { isValidLang(lang: string): boolean };

/**
 * Lighthouse checks only the language subtag, against axe-core's list of language codes
 * (the list Lighthouse vendors from axe); region and script are not checked.
 */
function isExpectedLanguageCode(hreflang: string): boolean {
  if (hreflang.toLowerCase() === NO_LANGUAGE) return true;
  return axeUtils.isValidLang(hreflang.split('-')[0].toLowerCase());
}

const isFullyQualified = (href: string) => href.startsWith('http:') || href.startsWith('https:');

/** Why a tag that Lighthouse accepts is still not well-formed BCP 47 (Google may ignore it); undefined when it is. */
function bcp47Problem(hreflang: string): string | undefined {
  if (hreflang.toLowerCase() === NO_LANGUAGE) return undefined;
  let problem: string | undefined;
  parseBcp47(hreflang, {
    warning: (reason: string) => {
      problem ??= reason;
    },
  });
  return problem;
}

/**
 * Lighthouse's hreflang: every `rel=alternate` link with an `hreflang` in `<head>` or a
 * `Link` header (not `<body>`) needs a known language code (or `x-default`) and a fully
 * qualified http(s) URL. Tags that pass but are not well-formed BCP 47 are warned about.
 */
export function hreflang(a: PageArtifacts): Outcome {
  const alternates = a.links.filter((l) => l.rel === 'alternate' && l.hreflang && l.source !== 'body');
  const items: SeoItem[] = [];
  const warnings: string[] = [];
  for (const link of alternates) {
    const where = link.element ? { element: link.element } : { header: link.header };
    if (!isExpectedLanguageCode(link.hreflang)) items.push({ ...where, reason: 'Unexpected language code', text: link.hreflang, url: link.hrefRaw });
    else {
      const problem = bcp47Problem(link.hreflang);
      if (problem) warnings.push(`hreflang "${link.hreflang}" is not a well-formed BCP 47 tag (${problem}); search engines may ignore it`);
    }
    if (!isFullyQualified(link.hrefRaw.toLowerCase())) items.push({ ...where, reason: 'Relative href value', text: link.hreflang, url: link.hrefRaw });
  }
  const value = alternates.map((l) => ({ hreflang: l.hreflang, href: l.hrefRaw }));
  return {
    pass: items.length === 0,
    value,
    message: items.length
      ? `${items.length} problem(s) in ${alternates.length} hreflang link(s)`
      : alternates.length ? `${alternates.length} valid hreflang link(s)` : 'no hreflang alternates',
    recommendation: 'Give every hreflang link a valid language code (ISO 639, optionally with script and region, or x-default) and an absolute http(s) URL.',
    items,
    warnings,
  };
}
