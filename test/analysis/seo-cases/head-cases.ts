import { body, doc, type SeoCase } from './case.js';

const withHead = (head: string) => doc(`<title>Oak furniture workshop</title>${head}`, '<p>Hello</p>');

/**
 * http-status-code: 400–599 fails, anything else (after redirects) passes. (Lighthouse stops
 * a whole run on such a page unless told to ignore the status code; the audit then fails.)
 */
export const httpStatusCases: SeoCase[] = [
  ...[403, 404, 410, 500, 503].map(
    (status): SeoCase => ({ name: `a page answering ${status} fails`, check: 'http_status', html: body('<p>x</p>'), status, expect: 'fail', names: { reason: `${status}` } }),
  ),
  { name: 'a page answering 200 passes', check: 'http_status', html: body('<p>x</p>'), expect: 'pass' },
  {
    name: 'a page reached through a 301 is judged by its final answer',
    check: 'http_status',
    path: '/old',
    routes: { '/old': (_req, res) => res.writeHead(301, { location: '/page' }).end() },
    html: body('<p>x</p>'),
    expect: 'pass',
  },
];

/** document-title (axe): `document.title`, the first HTML <title> anywhere, must not be blank. */
export const titleCases: SeoCase[] = [
  { name: 'a page with a title passes', check: 'title', html: doc('<title>Oak tables</title>'), expect: 'pass' },
  { name: 'a page without <title> fails', check: 'title', html: doc(''), expect: 'fail', names: { reason: 'Document does not have a non-empty <title> element' } },
  { name: 'an empty <title> fails', check: 'title', html: doc('<title></title>'), expect: 'fail', names: { selector: 'head > title', snippet: '<title>' } },
  { name: 'a <title> of spaces fails', check: 'title', html: doc('<title>   \n  </title>'), expect: 'fail' },
  { name: 'a <title> of &nbsp; fails', check: 'title', html: doc('<title>&nbsp;</title>'), expect: 'fail' },
  { name: 'a <title> in <body> still titles the document', check: 'title', html: doc('', '<title>Oak tables</title><p>Oak tables made by hand</p>'), expect: 'pass' },
  { name: 'an SVG <title> does not title the document', check: 'title', html: doc('', '<svg><title>Icon</title></svg><p>Oak tables made by hand</p>'), expect: 'fail' },
  { name: 'only the first <title> counts', check: 'title', html: doc('<title> </title><title>Oak tables</title>'), expect: 'fail' },
];

/** meta-description: the first <meta name="description"> in <head>, with text. */
export const metaDescriptionCases: SeoCase[] = [
  { name: 'a meta description passes', check: 'meta_description', html: withHead('<meta name="description" content="Tables made by hand.">'), expect: 'pass' },
  { name: 'no meta description fails', check: 'meta_description', html: withHead(''), expect: 'fail' },
  {
    name: 'an empty meta description fails',
    check: 'meta_description',
    html: withHead('<meta name="description" content="">'),
    expect: 'fail',
    names: { reason: 'Description text is empty.', selector: 'head > meta', snippet: '<meta name="description" content="">' },
  },
  { name: 'a meta description of spaces fails', check: 'meta_description', html: withHead('<meta name="description" content="   ">'), expect: 'fail' },
  { name: 'name="Description" is matched without case', check: 'meta_description', html: withHead('<meta name="Description" content="Tables made by hand.">'), expect: 'pass' },
  { name: 'a meta description in <body> is not read', check: 'meta_description', html: body('<p>x</p><meta name="description" content="Tables made by hand.">'), expect: 'fail' },
];

/** canonical: head or Link header, body ignored; invalid, relative, conflicting, hreflang and root mistakes. */
export const canonicalCases: SeoCase[] = [
  { name: 'no canonical is not applicable', check: 'canonical', html: withHead(''), expect: 'na' },
  {
    name: 'two different canonicals (head and Link header) conflict',
    check: 'canonical',
    html: withHead('<link rel="canonical" href="https://www.example.com">'),
    headers: { Link: '<https://example.com>; rel="canonical"' },
    expect: 'fail',
    names: { header: 'link: <https://example.com>; rel="canonical"' },
  },
  {
    name: 'an invalid canonical URL fails',
    check: 'canonical',
    html: withHead('<link rel="canonical" href="https:// example.com">'),
    expect: 'fail',
    names: { reason: 'Invalid URL', selector: 'head > link', snippet: '<link rel="canonical" href="https:// example.com">' },
  },
  { name: 'a relative canonical in a Link header fails', check: 'canonical', path: '/de/', html: withHead(''), headers: { Link: '</>; rel="canonical"' }, expect: 'fail', names: { reason: 'Is not an absolute URL', url: '/' } },
  { name: 'a canonical without scheme fails', check: 'canonical', html: withHead(''), headers: { Link: '<example.com>; rel="canonical"' }, expect: 'fail' },
  { name: 'a protocol-relative canonical fails', check: 'canonical', html: withHead('<link rel="canonical" href="//example.com/page">'), expect: 'fail' },
  {
    name: 'a canonical to another hreflang alternate fails',
    check: 'canonical',
    path: '/',
    html: withHead('<link rel="canonical" href="{origin}/fr"><link rel="alternate" hreflang="fr" href="{origin}/fr">'),
    headers: { Link: '<{origin}/>; rel="alternate"; hreflang="xx"' },
    expect: 'fail',
    names: { reason: 'Points to another hreflang location', url: '{origin}/fr' },
  },
  { name: 'a canonical to the root from the root passes', check: 'canonical', path: '/', html: withHead('<link rel="canonical" href="{origin}">'), expect: 'pass' },
  {
    name: 'a canonical to the root from a deep page fails',
    check: 'canonical',
    path: '/articles/cats-and-you',
    html: withHead('<link rel="canonical" href="{origin}">'),
    expect: 'fail',
    names: { reason: "Points to the domain's root URL" },
  },
  {
    name: 'the same canonical twice (head and header) passes',
    check: 'canonical',
    html: withHead('<link rel="canonical" href="https://example.com">'),
    headers: { Link: '<https://example.com>; rel="canonical"' },
    expect: 'pass',
  },
  { name: 'a canonical without the page query passes', check: 'canonical', path: '/articles/cats?utm_source=twitter', html: withHead('<link rel="canonical" href="{origin}/articles/cats">'), expect: 'pass' },
  { name: 'a canonical in a Link header counts', check: 'canonical', path: '/articles/cats?utm_source=twitter', html: withHead(''), headers: { Link: '<{origin}/articles/cats>; rel="canonical"' }, expect: 'pass' },
  { name: 'a canonical in <body> is ignored', check: 'canonical', html: body('<p>x</p><link rel="canonical" href="https://foo.com">'), expect: 'na' },
  { name: 'a <body> canonical does not conflict with the <head> one', check: 'canonical', html: doc('<title>t</title><link rel="canonical" href="{origin}/page">', '<p>Oak tables</p><link rel="canonical" href="https://foo.com">'), expect: 'pass' },
  { name: 'a canonical on another domain passes, as Lighthouse no longer flags it', check: 'canonical', html: withHead('<link rel="canonical" href="https://example.org/page">'), expect: 'pass' },
  { name: 'a canonical with an empty href is skipped', check: 'canonical', html: withHead('<link rel="canonical" href="">'), expect: 'na' },
  { name: 'rel="CANONICAL" counts', check: 'canonical', html: withHead('<link rel="CANONICAL" href="{origin}/page">'), expect: 'pass' },
  {
    name: 'the canonical is judged against the URL after redirects',
    check: 'canonical',
    path: '/old',
    routes: { '/old': (_req, res) => res.writeHead(301, { location: '/articles/cats' }).end() },
    html: withHead('<link rel="canonical" href="{origin}/articles/cats">'),
    expect: 'pass',
  },
];

/** hreflang: language subtag known (or x-default), absolute URL; <body> ignored. */
export const hreflangCases: SeoCase[] = [
  ...['xx1', 'XX-be', 'XX-be-Hans', '  es', '@@'].map(
    (code): SeoCase => ({
      name: `hreflang "${code}" in <head> is an unexpected language code`,
      check: 'hreflang',
      html: withHead(`<link rel="alternate" hreflang="${code}" href="http://example.com/">`),
      expect: 'fail',
      names: { reason: 'Unexpected language code', selector: 'head > link' },
    }),
  ),
  {
    name: 'hreflang "xx1" in a Link header fails',
    check: 'hreflang',
    html: withHead(''),
    headers: { Link: '<http://example.com/>; rel="alternate"; hreflang="xx1"' },
    expect: 'fail',
    names: { header: 'link: <http://example.com/>; rel="alternate"; hreflang="xx1"' },
  },
  { name: 'invalid hreflang in <body> is not audited', check: 'hreflang', html: body('<p>Oak tables</p><link rel="alternate" hreflang="xx" href="https://example.com">'), expect: 'pass' },
  ...['pl', 'nl-be', 'zh-Hans', 'x-default', 'FR-BE'].map(
    (code, i): SeoCase =>
      i % 2
        ? { name: `hreflang "${code}" in a Link header passes`, check: 'hreflang', html: withHead(''), headers: { Link: `<https://example.com>; rel="alternate"; hreflang="${code}"` }, expect: 'pass' }
        : { name: `hreflang "${code}" in <head> passes`, check: 'hreflang', html: withHead(`<link rel="alternate" hreflang="${code}" href="https://example.com">`), expect: 'pass' },
  ),
  { name: 'no alternates passes', check: 'hreflang', html: withHead(''), expect: 'pass' },
  { name: 'a relative hreflang href fails', check: 'hreflang', html: withHead('<link rel="alternate" hreflang="es" href="example.com">'), expect: 'fail', names: { reason: 'Relative href value', url: 'example.com' } },
  { name: 'a protocol-relative hreflang href in a header fails', check: 'hreflang', html: withHead(''), headers: { Link: '<//example.com>; rel="alternate"; hreflang="es"' }, expect: 'fail' },
  { name: 'rel="alternate stylesheet" is not an hreflang alternate', check: 'hreflang', html: withHead('<link rel="alternate stylesheet" hreflang="xx1" href="/a.css">'), expect: 'pass' },
];
