import type { TechCase } from '../support/techstack-cases.js';

const page = (body: string, head = '') => `<!doctype html><html><head><title>Case</title>${head}</head><body>${body}</body></html>`;
const script = (code: string) => `<script>${code}</script>`;

export const jsCases: TechCase[] = [
  {
    title: 'a global chain with a version',
    technologies: { jQuery: { cats: [59], js: { 'jQuery.fn.jquery': '([\\d.]+)\\;version:\\1' } } },
    page: page(script("window.jQuery = function () {}; jQuery.fn = { jquery: '3.6.4' };")),
    expect: { fetch: [], render: [{ name: 'jQuery', version: '3.6.4', confidence: 100 }] },
  },
  {
    title: 'an empty pattern: an object global is there',
    technologies: { Shopify: { cats: [6], js: { Shopify: '' } } },
    page: page(script('window.Shopify = { shop: "x.myshopify.com" };')),
    expect: { fetch: [], render: [{ name: 'Shopify', confidence: 100 }] },
  },
  {
    title: 'a `const` global, which is no property of window',
    technologies: { Alpine: { js: { 'AlpineApp.version': '^([\\d.]+)$\\;version:\\1' } } },
    page: page(script("const AlpineApp = { version: '3.13.3' };")),
    expect: { fetch: [], render: [{ name: 'Alpine', version: '3.13.3', confidence: 100 }] },
  },
  {
    title: 'a value reached through a prototype (the engine reads own properties only and misses it)',
    engine: { render: 'the engine steps into own properties only' },
    technologies: { Chart: { js: { 'chartLib.VERSION': '^([\\d.]+)$\\;version:\\1' } } },
    page: page(script("class ChartLib {} ChartLib.prototype.VERSION = '4.4.1'; window.chartLib = new ChartLib();")),
    expect: { fetch: [], render: [{ name: 'Chart', version: '4.4.1', confidence: 100 }] },
  },
  {
    title: 'a falsy global counts as absent, a null property as present ("false")',
    technologies: { Zero: { js: { zeroGlobal: '' } }, NullProp: { js: { 'holder.empty': '^false$' } } },
    page: page(script('window.zeroGlobal = 0; window.holder = { empty: null };')),
    expect: { fetch: [], render: [{ name: 'NullProp', confidence: 100 }] },
  },
  {
    title: 'a number value is read as text, and `\\;confidence:` applies',
    technologies: { Counter: { js: { 'counterLib.major': '^(\\d+)$\\;version:\\1\\;confidence:50' } } },
    page: page(script('window.counterLib = { major: 7 };')),
    expect: { fetch: [], render: [{ name: 'Counter', version: '7', confidence: 50 }] },
  },
  {
    title: 'a page whose Content-Security-Policy forbids eval: globals are still read',
    technologies: { Shopify: { cats: [6], js: { 'Shopify.shop': '\\.myshopify\\.com$' } } },
    headers: [['Content-Security-Policy', "script-src 'unsafe-inline'"]],
    page: page(script('window.Shopify = { shop: "x.myshopify.com" };')),
    expect: { fetch: [], render: [{ name: 'Shopify', confidence: 100 }] },
  },
  {
    title: 'chain names are case-sensitive',
    technologies: { Exact: { js: { 'MyLib.run': '' } } },
    page: page(script('window.mylib = { run() {} };')),
    expect: [],
  },
];

export const domCases: TechCase[] = [
  {
    title: 'a selector string: the element exists',
    engine: { fetch: 'the engine reads `dom` rules only in a browser' },
    technologies: { WordPress: { dom: "link[rel=stylesheet][href*='/wp-content/']" } },
    page: page('', '<link rel="stylesheet" href="/wp-content/themes/a/style.css">'),
    expect: [{ name: 'WordPress', confidence: 100 }],
  },
  {
    title: 'an attribute with a version capture',
    engine: { fetch: 'the engine reads `dom` rules only in a browser' },
    technologies: { Angular: { cats: [12], dom: { '[ng-version]': { attributes: { 'ng-version': '^([\\d.]+)\\;version:\\1' } } } } },
    page: page('<app-root ng-version="17.1.0"></app-root>'),
    expect: [{ name: 'Angular', version: '17.1.0', confidence: 100 }],
  },
  {
    title: 'every matching element: the marker is on the second one',
    engine: {
      fetch: 'the engine reads `dom` rules only in a browser',
      render: 'the engine records an attribute from the first element that has it only: its duplicate check compares a finding with itself',
    },
    technologies: { Acme: { dom: { 'div[data-widget]': { attributes: { 'data-widget': '^acme-(\\d+)$\\;version:\\1' } } } } },
    page: page('<div data-widget="weather"></div><div data-widget="acme-2"></div>'),
    expect: [{ name: 'Acme', version: '2', confidence: 100 }],
  },
  {
    title: 'text of every matching element, trimmed',
    engine: { fetch: 'the engine reads `dom` rules only in a browser' },
    technologies: { 'Acme CMS': { dom: { 'footer .credit': { text: '^Powered by Acme CMS ([\\d.]+)$\\;version:\\1' } } } },
    page: page('<footer><span class="credit">Theme by Someone</span><span class="credit">\n  Powered by Acme CMS 5.2  </span></footer>'),
    expect: [{ name: 'Acme CMS', version: '5.2', confidence: 100 }],
  },
  {
    title: 'an element property exists only in the browser',
    technologies: { React: { cats: [12], dom: { '#root': { properties: { _reactRootContainer: '' } } } } },
    page: page(`<div id="root"></div>${script("document.getElementById('root')._reactRootContainer = { current: {} };")}`),
    expect: { fetch: [], render: [{ name: 'React', confidence: 100 }] },
  },
  {
    title: 'an element the page script adds is in the rendered DOM only',
    technologies: { Intercom: { dom: '#intercom-container' } },
    page: page(script("document.body.insertAdjacentHTML('beforeend', '<div id=\"intercom-container\"></div>');")),
    expect: { fetch: [], render: [{ name: 'Intercom', confidence: 100 }] },
  },
  {
    title: 'exists and an attribute of one selector are two rules; `\\;confidence:` applies to each',
    engine: { fetch: 'the engine reads `dom` rules only in a browser' },
    technologies: { Partial: { dom: { 'meta[name=partial]': { exists: '\\;confidence:30', attributes: { content: '^yes$\\;confidence:30' } } } } },
    page: page('', '<meta name="partial" content="yes">'),
    expect: [{ name: 'Partial', confidence: 60 }],
  },
  {
    title: 'a selector neither parser accepts is skipped, and the others still run',
    engine: { fetch: 'the engine reads `dom` rules only in a browser' },
    technologies: { Broken: { dom: 'div[[bad' }, Fine: { dom: 'section.fine' } },
    page: page('<section class="fine"></section>'),
    expect: [{ name: 'Fine', confidence: 100 }],
  },
];
