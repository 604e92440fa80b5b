import { inBothModes, type TechCase } from '../support/techstack-cases.js';

const metas = (record: Record<string, string>) =>
  `<!doctype html><html><head><title>Case</title>${Object.entries(record)
    .map(([name, content]) => `<meta name="${name}" content="${content}">`)
    .join('')}</head><body></body></html>`;
const scripts = (...srcs: string[]) => `<!doctype html><html><head><title>Case</title>${srcs.map((s) => `<script src="${s}"></script>`).join('')}</head><body></body></html>`;
const files = (...paths: string[]) => Object.fromEntries(paths.map((p) => [p.split('?')[0], { body: 'var x;', type: 'text/javascript' }]));

export const versionCases: TechCase[] = [
  {
    title: 'a ternary: a group that matched takes the first branch, one that did not the second',
    technologies: {
      'Acme Shop': { meta: { 'acme-edition': '^(ee)?shop$\\;version:\\1?Enterprise:Community' } },
      'Other Shop': { meta: { 'other-edition': '^(ee)?shop$\\;version:\\1?Enterprise:Community' } },
    },
    page: metas({ 'acme-edition': 'eeshop', 'other-edition': 'shop' }),
    expect: [
      { name: 'Acme Shop', version: 'Enterprise', confidence: 100 },
      { name: 'Other Shop', version: 'Community', confidence: 100 },
    ],
  },
  {
    title: 'ternaries with an empty branch (`\\1?a:` and the README’s `\\1?:b`)',
    engine: inBothModes("the engine's ternary needs a non-empty first branch: `\\1?:stable` comes out as `?:stable` or `beta?:stable`"),
    technologies: {
      Next: { meta: { next: '^(next)?js$\\;version:\\1?Next:' } },
      Stable: { meta: { stable: '^(beta)?x$\\;version:\\1?:stable' } },
      Beta: { meta: { beta: '^(beta)?x$\\;version:\\1?:stable' } },
    },
    page: metas({ next: 'js', stable: 'x', beta: 'betax' }),
    expect: [
      { name: 'Beta', confidence: 100 },
      { name: 'Next', confidence: 100 },
      { name: 'Stable', version: 'stable', confidence: 100 },
    ],
  },
  {
    title: 'text around a back reference, and a group the regex does not have (no placeholder left)',
    technologies: { Prefixed: { meta: { p: '^build ([\\d.]+)$\\;version:v\\1' } }, Missing: { meta: { m: '^plain$\\;version:\\2' } } },
    page: metas({ p: 'build 1.2', m: 'plain' }),
    expect: [
      { name: 'Missing', confidence: 100 },
      { name: 'Prefixed', version: 'v1.2', confidence: 100 },
    ],
  },
  {
    title: 'a capture longer than ten characters is the version (the engine drops it)',
    engine: inBothModes('the engine skips a group longer than ten characters, then strips its `\\1`'),
    technologies: { App: { scriptSrc: '/app-([\\w.-]+)\\.js\\;version:\\1' } },
    page: scripts('/app-2.0.0-beta.12.js'),
    files: files('/app-2.0.0-beta.12.js'),
    expect: [{ name: 'App', version: '2.0.0-beta.12', confidence: 100 }],
  },
  {
    title: 'a timestamp, or a version over 15 characters, is no version (the engine’s rule)',
    technologies: { Stamped: { scriptSrc: '/build-(\\d+)\\.js\\;version:\\1' }, Long: { scriptSrc: '/rel-([\\d.]+)\\.js\\;version:\\1' } },
    page: scripts('/build-20240115123045.js', '/rel-1.2.3.4.5.6.7.8.9.js'),
    files: files('/build-20240115123045.js', '/rel-1.2.3.4.5.6.7.8.9.js'),
    expect: [
      { name: 'Long', confidence: 100 },
      { name: 'Stamped', confidence: 100 },
    ],
  },
  {
    title: 'several versions: the longest string is the version (the engine’s rule); all of them in semver order, 1.10.0 above 1.9.2 and above its release candidate',
    technologies: { Lib: { scriptSrc: '/lib-([\\w.-]+?)(?:\\.min)?\\.js\\;version:\\1' } },
    page: scripts('/lib-1.9.2.js', '/lib-1.10.0-rc.1.js', '/lib-1.10.0.min.js'),
    files: files('/lib-1.9.2.js', '/lib-1.10.0-rc.1.js', '/lib-1.10.0.min.js'),
    expect: [{ name: 'Lib', version: '1.10.0-rc.1', versions: ['1.10.0', '1.10.0-rc.1', '1.9.2'], confidence: 100 }],
  },
  {
    title: 'two versions of one length: the first found is the version (a child theme’s icon font matching the theme’s rule)',
    technologies: {
      Astra: {
        dom: { "link[href*='themes/astra']": { attributes: { href: 'astra\\S*\\.css(?:\\?ver=([0-9.]+))?\\;version:\\1' } } },
        scriptSrc: ['themes/astra\\S*\\.js(?:\\?ver=([0-9.]+))?\\;version:\\1'],
      },
    },
    page: `<!doctype html><html><head><title>Case</title>
      <link rel="stylesheet" href="/wp-content/themes/astra/assets/css/minified/main.min.css?ver=4.6.14">
      <link rel="stylesheet" href="/wp-content/themes/astra-child/assets/fontawesome/css/all.min.css?ver=5.15.4">
      <script src="/wp-content/themes/astra/assets/js/minified/frontend.min.js?ver=4.6.14"></script></head><body></body></html>`,
    files: {
      ...files('/wp-content/themes/astra/assets/js/minified/frontend.min.js'),
      '/wp-content/themes/astra/assets/css/minified/main.min.css': { body: 'body{}', type: 'text/css' },
      '/wp-content/themes/astra-child/assets/fontawesome/css/all.min.css': { body: 'i{}', type: 'text/css' },
    },
    expect: [{ name: 'Astra', version: '4.6.14', versions: ['5.15.4', '4.6.14'], confidence: 100 }],
  },
  {
    title: 'a less precise sighting of one version is not a second version',
    technologies: { WordPress: { meta: { generator: '^WordPress ([\\d.]+)\\;version:\\1' }, scriptSrc: '/wp-includes/.+\\?ver=([\\d.]+)\\;version:\\1' } },
    page: metas({ generator: 'WordPress 6.4' }).replace('</head>', '<script src="/wp-includes/js/a.js?ver=6.4.2"></script></head>'),
    files: files('/wp-includes/js/a.js'),
    expect: [{ name: 'WordPress', version: '6.4.2', confidence: 100 }],
  },
];

export const confidenceCases: TechCase[] = [
  {
    title: 'two patterns at 50 add up to 100',
    technologies: { Magento: { meta: { generator: 'Magento\\;confidence:50' }, html: '<script[^>]+mage/cookies\\;confidence:50' } },
    page: metas({ generator: 'Magento' }).replace('</head>', '<script type="text/x-magento-init" data-src="mage/cookies"></script></head>'),
    expect: [{ name: 'Magento', confidence: 100 }],
  },
  {
    title: 'one pattern matching two values counts once',
    technologies: { Widget: { scriptSrc: '/widget\\.js\\;confidence:50' } },
    page: scripts('/a/widget.js', '/b/widget.js'),
    files: files('/a/widget.js', '/b/widget.js'),
    expect: [{ name: 'Widget', confidence: 50 }],
  },
  {
    title: 'the sum stops at 100',
    technologies: { Triple: { meta: { a: '^1$\\;confidence:50', b: '^2$\\;confidence:50', c: '^3$\\;confidence:50' } } },
    page: metas({ a: '1', b: '2', c: '3' }),
    expect: [{ name: 'Triple', confidence: 100 }],
  },
  {
    title: 'two rules with the same regex each count',
    engine: inBothModes('the engine keeps one detection per technology, regex text and version, so two empty patterns at 50 count once'),
    technologies: { Pair: { meta: { a: '\\;confidence:50', b: '\\;confidence:50' } } },
    page: metas({ a: '1', b: '2' }),
    expect: [{ name: 'Pair', confidence: 100 }],
  },
  {
    title: 'confidence:0 patterns only give a version: alone they detect nothing',
    engine: inBothModes('the engine lists a technology found only by `\\;confidence:0` patterns, at 0'),
    technologies: {
      Lodash: { meta: { 'lib-version': '^(.+)$\\;confidence:0\\;version:\\1', 'lib-name': '^lodash$' } },
      'Version Only': { meta: { 'other-version': '^(.+)$\\;confidence:0\\;version:\\1' } },
    },
    page: metas({ 'lib-version': '4.17.21', 'lib-name': 'lodash', 'other-version': '1.0.0' }),
    expect: [{ name: 'Lodash', version: '4.17.21', confidence: 100 }],
  },
];
