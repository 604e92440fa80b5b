import type { TechCase } from '../../test/analysis/support/techstack-cases.js';

const js = (body: string) => ({ body, type: 'text/javascript' });

/**
 * Loopback pages in the manner of real sites, read with the full fingerprint data by both
 * matchers (bench/techstack-engine.ts). Everything they load is on the same loopback site.
 * `expect` is unused here: these pages have no fixed answer, only the two readings.
 */
export const realisticPages: Array<Pick<TechCase, 'title' | 'page' | 'headers' | 'cookies' | 'files'>> = [
  {
    title: 'WordPress blog behind nginx and Plesk, with GA4',
    headers: [
      ['Server', 'nginx/1.25.3'],
      ['X-Powered-By', 'PHP/8.2.1'],
      ['X-Powered-By', 'PleskLin'],
      ['Link', '<http://blog.test/wp-json/>; rel="https://api.w.org/"'],
    ],
    cookies: ['PHPSESSID=abc123; Path=/', '_ga_ABC123XYZ=GS1.1.1700000000.1.0.1700000000.0.0.0; Path=/'],
    page: `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="generator" content="WordPress 6.4.2">
<title>Blog</title>
<link rel="stylesheet" href="/wp-content/themes/twentytwentyfour/style.css?ver=6.4.2">
<script src="/wp-includes/js/jquery/jquery.min.js?ver=3.7.1"></script>
<script src="/wp-includes/js/jquery/jquery-migrate.min.js?ver=3.4.1"></script>
<script src="/wp-content/plugins/contact-form-7/includes/js/index.js?ver=5.8.4"></script>
</head><body class="home blog wp-embed-responsive">
<div class="wp-site-blocks"><div class="wp-block-group"><div class="wp-block-post-title">Hello</div></div></div>
</body></html>`,
    files: {
      '/wp-includes/js/jquery/jquery.min.js': js('window.jQuery = window.$ = function () {}; jQuery.fn = { jquery: "3.7.1" };'),
      '/wp-includes/js/jquery/jquery-migrate.min.js': js('jQuery.migrateVersion = "3.4.1";'),
      '/wp-content/plugins/contact-form-7/includes/js/index.js': js('window.wpcf7 = { api: {} };'),
      '/wp-content/themes/twentytwentyfour/style.css': { body: 'body{}', type: 'text/css' },
    },
  },
  {
    title: 'Vue single-page app on Express behind CloudFront',
    headers: [
      ['X-Powered-By', 'Express'],
      ['Via', '1.1 4f2a.cloudfront.net (CloudFront)'],
      ['X-Amz-Cf-Id', 'abc123'],
    ],
    page: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>App</title>
<script src="/assets/vue-3.4.21.min.js"></script></head>
<body><div id="app" data-v-app><span data-v-7ba5bd90>Loading</span></div><script src="/assets/app.js"></script></body></html>`,
    files: {
      '/assets/vue-3.4.21.min.js': js('window.Vue = { version: "3.4.21", createApp() {} };'),
      '/assets/app.js': js('document.getElementById("app").__vue_app__ = { version: "3.4.21" };'),
    },
  },
  {
    title: 'Backbone app with Underscore and Lodash, and a hybrid Angular / AngularJS widget',
    page: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hybrid</title>
<script src="/js/underscore-min.js"></script><script src="/js/lodash.min.js"></script><script src="/js/backbone-min.js"></script>
<script src="/js/angular.min.js"></script></head>
<body><div ng-app="legacy"><span>{{ 1 + 1 }}</span></div><app-root ng-version="17.1.0"></app-root></body></html>`,
    files: {
      '/js/underscore-min.js': js('window._ = { VERSION: "1.13.6", restArguments() {} };'),
      '/js/lodash.min.js': js('window._ = { VERSION: "4.17.21", differenceBy() {}, templateSettings: {} };'),
      '/js/backbone-min.js': js('window.Backbone = { VERSION: "1.5.0" };'),
      '/js/angular.min.js': js('window.angular = { version: { full: "1.8.3" } };'),
    },
  },
];
