import { inBothModes, type TechCase } from '../support/techstack-cases.js';

const page = (head: string, body = '') => `<!doctype html><html><head><title>Case</title>${head}</head><body>${body}</body></html>`;
const generator = (content: string) => `<meta name="generator" content="${content}">`;
const scripts = (...srcs: string[]) => srcs.map((s) => `<script src="${s}"></script>`).join('');
/** Backbone (which implies Underscore.js) and the two utility libraries that exclude each other. */
const utilityLibraries = (underscoreScriptSrc: string): TechCase['technologies'] => ({
  'Backbone.js': { cats: [12], scriptSrc: 'backbone.*\\.js', implies: 'Underscore.js' },
  Lodash: { cats: [59], scriptSrc: 'lodash.*\\.js', excludes: 'Underscore.js' },
  'Underscore.js': { cats: [59], scriptSrc: underscoreScriptSrc, excludes: 'Lodash' },
});
/** A WordPress plugin known by its header, which requires WordPress and implies its server. */
const liteSpeedCache: TechCase['technologies'] = {
  'LiteSpeed Cache': { cats: [87], headers: { 'x-litespeed-cache': '' }, implies: 'LiteSpeed', requires: 'WordPress' },
  LiteSpeed: { cats: [22], headers: { Server: '^LiteSpeed$' } },
  WordPress: { meta: { generator: '^WordPress' } },
};
const files = (...paths: string[]) => Object.fromEntries(paths.map((p) => [p.split('?')[0], { body: 'var x;', type: 'text/javascript' }]));

export const impliesCases: TechCase[] = [
  {
    title: 'a chain: each implied technology at the implier’s confidence',
    technologies: { WooCommerce: { cats: [6], meta: { generator: '^WooCommerce' }, implies: 'WordPress' }, WordPress: { implies: ['PHP', 'MySQL'] }, PHP: { cats: [27] }, MySQL: {} },
    page: page(generator('WooCommerce 8.4.0')),
    expect: [
      { name: 'MySQL', confidence: 100 },
      { name: 'PHP', confidence: 100 },
      { name: 'WooCommerce', confidence: 100 },
      { name: 'WordPress', confidence: 100 },
    ],
  },
  {
    title: 'an implication with \\;confidence:50 is 50, and the chain keeps its weakest link (the engine’s min)',
    technologies: { Magento: { cats: [6], meta: { generator: '^Magento' }, implies: 'PHP\\;confidence:50' }, PHP: { cats: [27], implies: 'Zend Engine' }, 'Zend Engine': {} },
    page: page(generator('Magento 2')),
    expect: [
      { name: 'Magento', confidence: 100 },
      { name: 'PHP', confidence: 50 },
      { name: 'Zend Engine', confidence: 50 },
    ],
  },
  {
    title: 'a weakly detected implier passes on its own confidence',
    technologies: { Guess: { meta: { generator: '^Guess\\;confidence:40' }, implies: 'Runtime' }, Runtime: {} },
    page: page(generator('Guess')),
    expect: [
      { name: 'Guess', confidence: 40 },
      { name: 'Runtime', confidence: 40 },
    ],
  },
  {
    title: 'an implication can name a version',
    technologies: { 'Bootstrap 5 Theme': { meta: { generator: '^B5Theme' }, implies: 'Bootstrap\\;version:5' }, Bootstrap: {} },
    page: page(generator('B5Theme')),
    expect: [
      { name: 'Bootstrap', version: '5', confidence: 100 },
      { name: 'Bootstrap 5 Theme', confidence: 100 },
    ],
  },
  {
    title: 'found weakly by its own pattern and implied strongly: the higher confidence (the engine keeps the weak one)',
    engine: inBothModes('the engine leaves a technology it found at its own confidence when something implies it'),
    technologies: { WordPress: { meta: { generator: '^WordPress' }, implies: 'PHP' }, PHP: { cats: [27], url: '\\.php\\;confidence:50' } },
    page: page(generator('WordPress')),
    path: '/index.php',
    expect: [
      { name: 'PHP', confidence: 100 },
      { name: 'WordPress', confidence: 100 },
    ],
  },
];

export const excludesCases: TechCase[] = [
  {
    title: 'a hybrid Angular / AngularJS page: one stays (Angular, which has a version), with what it implies',
    engine: { fetch: 'the engine reads `dom` rules only in a browser: Angular is not seen, AngularJS stays' },
    technologies: {
      Angular: { cats: [12], dom: { '[ng-version]': { attributes: { 'ng-version': '^([\\d.]+)\\;version:\\1' } } }, excludes: ['AngularJS'], implies: 'TypeScript' },
      AngularJS: { cats: [12], html: '<(?:div|html)[^>]+ng-app=', excludes: ['Angular'] },
      TypeScript: { cats: [27] },
    },
    page: page('', '<div ng-app="legacy"></div><app-root ng-version="17.1.0"></app-root>'),
    expect: [
      { name: 'Angular', version: '17.1.0', confidence: 100 },
      { name: 'TypeScript', confidence: 100 },
    ],
  },
  {
    title: 'the dropped side implies nothing: AngularJS stays on higher confidence, TypeScript (implied by Angular) is not reported',
    engine: { render: 'of a mutual pair the engine keeps the one it detected first (its dom findings come first), whatever the evidence' },
    technologies: {
      Angular: { cats: [12], dom: { 'app-root': { exists: '\\;confidence:50' } }, excludes: 'AngularJS', implies: 'TypeScript' },
      AngularJS: { cats: [12], html: '<(?:div|html)[^>]+ng-app=', excludes: 'Angular' },
      TypeScript: { cats: [27] },
    },
    page: page('', '<div ng-app="legacy"></div><app-root></app-root>'),
    expect: [{ name: 'AngularJS', confidence: 100 }],
  },
  {
    title: 'Backbone, Underscore and Lodash: Underscore (with a version) stays, Lodash goes',
    engine: inBothModes("the engine keeps the first of the pair (Lodash), then Backbone's implies adds Underscore.js back, without its version: both sides reported"),
    technologies: utilityLibraries('underscore.*\\.js(?:\\?ver=([\\d.]+))?\\;version:\\1'),
    page: page(scripts('/lodash.min.js', '/underscore.js?ver=1.13.6', '/backbone.js')),
    files: files('/lodash.min.js', '/underscore.js', '/backbone.js'),
    expect: [
      { name: 'Backbone.js', confidence: 100 },
      { name: 'Underscore.js', version: '1.13.6', confidence: 100 },
    ],
  },
  {
    title: 'Backbone and Lodash stronger than Underscore: Underscore is not implied back in beside Lodash (the engine re-adds it)',
    engine: inBothModes("Backbone's implies adds Underscore.js back beside the Lodash that excluded it"),
    technologies: utilityLibraries('underscore.*\\.js\\;confidence:50'),
    page: page(scripts('/lodash.min.js', '/underscore.js', '/backbone.js')),
    files: files('/lodash.min.js', '/underscore.js', '/backbone.js'),
    expect: [
      { name: 'Backbone.js', confidence: 100 },
      { name: 'Lodash', confidence: 100 },
    ],
  },
  {
    title: 'a mutual pair at equal confidence without versions: more rules matched stays',
    engine: inBothModes('of a mutual pair the engine keeps the one it detected first'),
    technologies: {
      Alpha: { meta: { generator: '^Shared' }, excludes: 'Beta' },
      Beta: { meta: { generator: '^Shared' }, html: '<body class="beta"', excludes: 'Alpha' },
    },
    page: page(generator('Shared'), '').replace('<body>', '<body class="beta">'),
    expect: [{ name: 'Beta', confidence: 100 }],
  },
  {
    title: 'one-way: the technology that names the other stays, even on weaker evidence (Arastta carries OpenCart’s markers)',
    technologies: {
      Arastta: { meta: { generator: '^Arastta\\;confidence:50' }, excludes: 'OpenCart' },
      OpenCart: { cats: [6], html: 'catalog/view/theme', scriptSrc: 'catalog/view/javascript' },
    },
    page: page(generator('Arastta') + scripts('/catalog/view/javascript/common.js'), '<img src="/catalog/view/theme/default/logo.png">'),
    files: files('/catalog/view/javascript/common.js'),
    expect: [{ name: 'Arastta', confidence: 50 }],
  },
];

export const requiresCases: TechCase[] = [
  {
    title: 'LiteSpeed Cache without WordPress: neither it nor the LiteSpeed it implies',
    technologies: liteSpeedCache,
    headers: [['X-LiteSpeed-Cache', 'hit']],
    expect: [],
  },
  {
    title: 'with WordPress, LiteSpeed Cache is found by its header (the engine never reads headers for it) and implies LiteSpeed',
    engine: inBothModes("the engine matches a technology with `requires` again without the response headers, so LiteSpeed Cache's header is never read"),
    technologies: liteSpeedCache,
    headers: [['X-LiteSpeed-Cache', 'hit']],
    page: page(generator('WordPress')),
    expect: [
      { name: 'LiteSpeed', confidence: 100 },
      { name: 'LiteSpeed Cache', confidence: 100 },
      { name: 'WordPress', confidence: 100 },
    ],
  },
  {
    title: 'what is required may be implied',
    engine: { fetch: "the engine reads `dom` rules only in a browser (Storefront's marker)" },
    technologies: {
      WooCommerce: { cats: [6], meta: { generator: '^WooCommerce' }, implies: 'WordPress' },
      WordPress: {},
      Storefront: { dom: 'body.storefront', requires: 'WordPress' },
    },
    page: page(generator('WooCommerce')).replace('<body>', '<body class="storefront">'),
    expect: [
      { name: 'Storefront', confidence: 100 },
      { name: 'WooCommerce', confidence: 100 },
      { name: 'WordPress', confidence: 100 },
    ],
  },
  {
    title: 'any one of several required technologies is enough (ShoppingFeeder on Shopify)',
    technologies: {
      ShoppingFeeder: { scriptSrc: 'shoppingfeeder\\.js', requires: ['Magento', 'Shopify'] },
      Shopify: { cats: [6], js: { Shopify: '' }, meta: { 'shopify-checkout-api-token': '' } },
      Magento: { cats: [6] },
    },
    page: page('<meta name="shopify-checkout-api-token" content="t">' + scripts('/shoppingfeeder.js')),
    files: files('/shoppingfeeder.js'),
    expect: [
      { name: 'Shopify', confidence: 100 },
      { name: 'ShoppingFeeder', confidence: 100 },
    ],
  },
  {
    title: 'a required technology dropped by excludes does not count',
    technologies: {
      'HTTP/3': { headers: { 'alt-svc': 'h3' }, excludes: 'HTTP/2' },
      'HTTP/2': { headers: { 'alt-svc': 'h2' } },
      'Push Helper': { headers: { link: 'rel=preload' }, requires: 'HTTP/2' },
    },
    headers: [
      ['Alt-Svc', 'h3=":443", h2=":443"'],
      ['Link', '</a.css>; rel=preload'],
    ],
    expect: [{ name: 'HTTP/3', confidence: 100 }],
  },
  {
    title: 'requiresCategory: an ecommerce plugin on a page whose only platform is a CMS is not reported',
    technologies: {
      'Cart Booster': { scriptSrc: 'cartbooster\\.js', requiresCategory: 6 },
      Ghost: { cats: [1], meta: { generator: '^Ghost' } },
    },
    page: page(generator('Ghost 5.0') + scripts('/cartbooster.js')),
    files: files('/cartbooster.js'),
    expect: [{ name: 'Ghost', confidence: 100 }],
  },
  {
    title: 'requiresCategory by name, as the format’s README writes it: the plugin beside an ecommerce platform',
    engine: inBothModes('the engine reads `requiresCategory` as category ids only'),
    technologies: {
      'Cart Booster': { scriptSrc: 'cartbooster\\.js', requiresCategory: 'Ecommerce' },
      PrestaShop: { cats: [6], meta: { generator: '^PrestaShop' } },
    },
    page: page(generator('PrestaShop') + scripts('/cartbooster.js')),
    files: files('/cartbooster.js'),
    expect: [
      { name: 'Cart Booster', confidence: 100 },
      { name: 'PrestaShop', confidence: 100 },
    ],
  },
];
