import type { ElementRef, Outcome } from '../check-result.js';
import type { PageArtifacts } from '../page-artifacts.js';

const elementOf = (element: ElementRef | null | undefined) => (element ? { element } : {});

/** Lighthouse's http-status-code: the main document must not answer 400–599. */
export function httpStatusCode(a: PageArtifacts): Outcome {
  const failed = a.status >= 400 && a.status <= 599;
  return {
    pass: !failed,
    value: a.status,
    message: `the page answered HTTP ${a.status}`,
    recommendation: `Serve the page with HTTP 200 (it answered ${a.status}); search engines may not index pages that answer 4xx or 5xx.`,
    items: failed ? [{ reason: `Page has unsuccessful HTTP status code ${a.status}`, url: a.documentUrl }] : [],
  };
}

/** Lighthouse's document-title (axe's rule): `document.title` must hold more than whitespace. */
export function documentTitle(a: PageArtifacts): Outcome {
  const text = a.title?.text.trim() ?? '';
  if (text) return { pass: true, value: text, message: `title is "${text}"`, recommendation: '' };
  return {
    pass: false,
    value: null,
    message: a.title ? 'the <title> is empty' : 'no <title>',
    recommendation: 'Add a <title> that describes the page (it is the headline of the search result).',
    items: [{ reason: 'Document does not have a non-empty <title> element', ...elementOf(a.title?.element ?? a.root) }],
  };
}

/** Lighthouse's meta-description: the first `<meta name="description">` in `<head>` with more than whitespace. */
export function metaDescription(a: PageArtifacts): Outcome {
  const meta = a.meta.find((m) => m.name === 'description');
  const text = meta?.content.trim() ?? '';
  if (text) return { pass: true, value: text, message: `meta description has ${text.length} characters`, recommendation: '' };
  return {
    pass: false,
    value: null,
    message: meta ? 'Description text is empty.' : 'no meta description',
    recommendation: 'Add <meta name="description" content="…"> summarising the page; search results show it.',
    items: [meta ? { reason: 'Description text is empty.', element: meta.element } : { reason: 'Document does not have a meta description', ...elementOf(a.head) }],
  };
}
