import { inBothModes, type TechCase } from '../support/techstack-cases.js';

const page = (head: string, body = '') => `<!doctype html><html><head><title>Case</title>${head}</head><body>${body}</body></html>`;
const js = 'text/javascript';

export const metaCases: TechCase[] = [
  {
    title: 'a generator tag with a version capture',
    technologies: { WordPress: { meta: { generator: '^WordPress(?: ([\\d.]+))?\\;version:\\1' } } },
    page: page('<meta name="generator" content="WordPress 6.4.2">'),
    expect: [{ name: 'WordPress', version: '6.4.2', confidence: 100 }],
  },
  {
    title: 'every tag of one name: the second generator names a second technology',
    technologies: {
      WordPress: { meta: { generator: '^WordPress(?: ([\\d.]+))?\\;version:\\1' } },
      Elementor: { meta: { generator: '^Elementor ([\\d.]+)\\;version:\\1' } },
    },
    page: page('<meta name="generator" content="WordPress 6.4.2"><meta name="generator" content="Elementor 3.18.0">'),
    expect: [
      { name: 'Elementor', version: '3.18.0', confidence: 100 },
      { name: 'WordPress', version: '6.4.2', confidence: 100 },
    ],
  },
  {
    title: 'names compared without case, and `property` tags',
    technologies: { Drupal: { meta: { generator: '^Drupal ([\\d]+)\\;version:\\1' } }, Shopify: { meta: { 'og:site_name': '\\bShopify\\b' } } },
    page: page('<meta name="Generator" content="Drupal 10 (https://www.drupal.org)"><meta property="og:site_name" content="My Shopify store">'),
    expect: [
      { name: 'Drupal', version: '10', confidence: 100 },
      { name: 'Shopify', confidence: 100 },
    ],
  },
  {
    title: 'an http-equiv tag (the data names them; the engine reads only name and property)',
    engine: inBothModes('the engine reads meta tags by `name` or `property` only'),
    technologies: { '1C-Bitrix': { meta: { 'x-powered-cms': 'Bitrix Site Manager' } } },
    page: page('<meta http-equiv="X-Powered-CMS" content="Bitrix Site Manager (DEMO)">'),
    expect: [{ name: '1C-Bitrix', confidence: 100 }],
  },
  {
    title: 'a list of patterns for one name, each counted',
    technologies: { Joomla: { meta: { generator: ['Joomla!\\;confidence:50', ' - Open Source Content Management\\;confidence:50'] } } },
    page: page('<meta name="generator" content="Joomla! - Open Source Content Management">'),
    expect: [{ name: 'Joomla', confidence: 100 }],
  },
];

export const scriptSrcCases: TechCase[] = [
  {
    title: 'a version in the script URL',
    technologies: { jQuery: { cats: [59], scriptSrc: 'jquery[.-]([\\d.]*\\d)[^/]*\\.js\\;version:\\1' } },
    page: page('<script src="/js/jquery-3.7.1.min.js"></script>'),
    files: { '/js/jquery-3.7.1.min.js': { body: 'var jq = 1;', type: js } },
    expect: [{ name: 'jQuery', version: '3.7.1', confidence: 100 }],
  },
  {
    title: 'a relative URL is read as the absolute one the browser loads',
    technologies: { 'Local CDN': { scriptSrc: '^http://127\\.0\\.0\\.1:\\d+/static/bundle\\.js$' } },
    page: page('<script src="static/bundle.js"></script>'),
    files: { '/static/bundle.js': { body: 'var b = 1;', type: js } },
    expect: [{ name: 'Local CDN', confidence: 100 }],
  },
  {
    title: 'a `\\/` in a pattern means `/` (the engine turns it into a backslash and misses)',
    engine: inBothModes("the engine rewrites every `/` to `\\/`, so the data's `\\/` becomes a literal backslash"),
    technologies: { 'Yoast SEO': { cats: [87], scriptSrc: '\\/wp-content\\/plugins\\/wordpress-seo\\/' } },
    page: page('<script src="/wp-content/plugins/wordpress-seo/js/dist/a.js"></script>'),
    files: { '/wp-content/plugins/wordpress-seo/js/dist/a.js': { body: 'var y = 1;', type: js } },
    expect: [{ name: 'Yoast SEO', confidence: 100 }],
  },
  {
    title: 'two builds of one library: the longest version string is the version, as the engine reports it, and both are listed',
    technologies: { jQuery: { cats: [59], scriptSrc: 'jquery[.-]([\\d.]*\\d)[^/]*\\.js\\;version:\\1' } },
    page: page('<script src="/old/jquery-1.12.4.min.js"></script><script src="/new/jquery-3.7.1.min.js"></script>'),
    files: { '/old/jquery-1.12.4.min.js': { body: 'var a;', type: js }, '/new/jquery-3.7.1.min.js': { body: 'var b;', type: js } },
    expect: [{ name: 'jQuery', version: '1.12.4', versions: ['3.7.1', '1.12.4'], confidence: 100 }],
  },
  {
    title: 'every script URL is tested: a `$`-anchored pattern matches the second',
    technologies: { Turbo: { scriptSrc: '/turbo\\.es2017-umd\\.js$' } },
    page: page('<script src="/app.js"></script><script src="/vendor/turbo.es2017-umd.js"></script>'),
    files: { '/app.js': { body: 'var a;', type: js }, '/vendor/turbo.es2017-umd.js': { body: 'var t;', type: js } },
    expect: [{ name: 'Turbo', confidence: 100 }],
  },
];

export const scriptsCases: TechCase[] = [
  {
    title: 'an inline script with a version capture',
    technologies: { 'Vue.js': { cats: [12], scripts: 'Vue\\.js v([\\d.]+)\\;version:\\1' } },
    page: page('<script>/*! Vue.js v2.7.16 (c) Evan You */ var v = 1;</script>'),
    expect: [{ name: 'Vue.js', version: '2.7.16', confidence: 100 }],
  },
  {
    title: 'each script alone: `^` anchors at the start of the second script',
    engine: inBothModes('the engine tests its list of inline scripts as one string joined by commas: `^` anchors only at the first'),
    technologies: { 'Analytics Queue': { scripts: '^var analyticsQueue\\b' } },
    page: page('<script>var first = 1;</script><script>var analyticsQueue = [];</script>'),
    expect: [{ name: 'Analytics Queue', confidence: 100 }],
  },
  {
    title: "an external script's body is read in the browser, which loaded it",
    technologies: { webpack: { scripts: 'function webpackJsonpCallback\\(data\\) \\{' } },
    page: page('<script src="/main.js"></script>'),
    files: { '/main.js': { body: 'function webpackJsonpCallback(data) { return data; }', type: js } },
    expect: { fetch: [], render: [{ name: 'webpack', confidence: 100 }] },
  },
];

export const htmlCases: TechCase[] = [
  {
    title: 'a tag pattern',
    technologies: { React: { cats: [12], html: '<[^>]+data-reactroot' } },
    page: page('', '<div data-reactroot="">App</div>'),
    expect: [{ name: 'React', confidence: 100 }],
  },
  {
    title: 'a version from a comment',
    technologies: { 'Yoast SEO': { cats: [87], html: '<!-- This site is optimized with the Yoast SEO plugin v([\\d.]+) -\\;version:\\1' } },
    page: page('<!-- This site is optimized with the Yoast SEO plugin v21.7 - https://yoast.com/wordpress/plugins/seo/ -->'),
    expect: [{ name: 'Yoast SEO', version: '21.7', confidence: 100 }],
  },
  {
    title: '`+` and `*` reach at most 250 characters, as in the engine: a marker 300 characters into the tag is not seen',
    technologies: { Near: { html: '<div[^>]+data-near' }, Far: { html: '<div[^>]+data-far' } },
    page: page('', `<div class="${'x'.repeat(100)}" data-near="1"></div><div class="${'y'.repeat(300)}" data-far="1"></div>`),
    expect: [{ name: 'Near', confidence: 100 }],
  },
  {
    title: 'a `+` inside a character class is a plus sign (the engine rewrites it into a quantifier)',
    engine: inBothModes('the engine rewrites every `+` into `{1,250}`, inside character classes too'),
    technologies: { 'C++ Docs': { html: '<code>C[+]{2} reference' } },
    page: page('', '<code>C++ reference</code>'),
    expect: [{ name: 'C++ Docs', confidence: 100 }],
  },
];

export const urlCases: TechCase[] = [
  {
    title: 'a pattern on the page URL, query string included',
    technologies: { PHP: { cats: [27], url: '\\.php(?:$|\\?)' } },
    path: '/index.php?page=2',
    expect: [{ name: 'PHP', confidence: 100 }],
  },
  {
    title: 'the URL after redirects, not the one asked for',
    technologies: { Old: { url: '/old-shop/' }, Store: { url: '/store/item$' } },
    path: '/old-shop/item',
    redirects: { '/old-shop/item': '/store/item' },
    expect: [{ name: 'Store', confidence: 100 }],
  },
];
