/** Fixture pages shared by the analysis tests and bench/analysis.ts. */

export const wordpressPage = `<!doctype html>
<html lang="en"><head>
<meta charset="utf-8">
<meta name="generator" content="WordPress 6.4.2">
<title>Fixture blog</title>
<link rel="stylesheet" href="/wp-content/themes/twentytwentyfour/style.css?ver=6.4.2">
<script src="https://code.jquery.com/jquery-3.7.1.min.js"></script>
<script async src="https://www.googletagmanager.com/gtag/js?id=G-TEST123"></script>
<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} gtag('js', new Date()); gtag('config', 'G-TEST123');</script>
</head><body><h1>Hello</h1><p>A post.</p></body></html>`;

export const wordpressHeaders = {
  'content-type': 'text/html; charset=utf-8',
  server: 'nginx/1.25.3',
  'x-powered-by': 'PHP/8.2.1',
  'cf-ray': '8a1b2c3d4e5f-AMS',
};

export const vueAppPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>App</title>
<script src="/assets/vue-3.4.21.min.js"></script></head>
<body><div id="app" data-v-app><span data-v-7ba5bd90>Loading</span></div><script src="/assets/app.js"></script></body></html>`;

export const vueAppHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'x-powered-by': 'Express',
  via: '1.1 4f2a.cloudfront.net (CloudFront)',
  'x-amz-cf-id': 'abc123',
};

export const plainPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Plain</title></head>
<body><h1>Plain page</h1><p>Nothing to see here.</p></body></html>`;
