import { inBothModes, type TechCase } from '../support/techstack-cases.js';

export const headerCases: TechCase[] = [
  {
    title: 'a Server pattern with a version capture',
    technologies: { Nginx: { cats: [22], headers: { Server: 'nginx(?:/([\\d.]+))?\\;version:\\1' } } },
    headers: [['Server', 'nginx/1.25.3']],
    expect: [{ name: 'Nginx', version: '1.25.3', confidence: 100 }],
  },
  {
    title: 'header names compared without case',
    technologies: { Express: { headers: { 'x-powered-by': '^Express$' } } },
    headers: [['X-POWERED-BY', 'Express']],
    expect: [{ name: 'Express', confidence: 100 }],
  },
  {
    title: 'a repeated header: the ^-anchored pattern of the second line matches (Plesk behind PHP)',
    engine: inBothModes('the engine gets a repeated header as one value, its lines joined by a newline, so `^` anchors only at the first line'),
    technologies: {
      PHP: { cats: [27], headers: { 'X-Powered-By': '^php/?([\\d.]+)?\\;version:\\1' } },
      Plesk: { headers: { 'X-Powered-By': '^Plesk(?:L|W)in' } },
    },
    headers: [
      ['X-Powered-By', 'PHP/8.2.1'],
      ['X-Powered-By', 'PleskLin'],
    ],
    expect: [
      { name: 'PHP', version: '8.2.1', confidence: 100 },
      { name: 'Plesk', confidence: 100 },
    ],
  },
  {
    title: 'several Server-Timing lines, each pattern anchored at both ends of its own line',
    engine: inBothModes('the engine gets a repeated header as one value, its lines joined by a newline, so `^` anchors only at the first line'),
    technologies: {
      Cloudflare: { headers: { 'Server-Timing': '^cfRequestDuration;dur=[\\d.]+$' } },
      Fastly: { headers: { 'Server-Timing': '^fastly;desc=edge$' } },
    },
    headers: [
      ['Server-Timing', 'cfRequestDuration;dur=12.5'],
      ['Server-Timing', 'fastly;desc=edge'],
    ],
    expect: [
      { name: 'Cloudflare', confidence: 100 },
      { name: 'Fastly', confidence: 100 },
    ],
  },
  {
    title: 'an empty pattern: the header is there',
    technologies: { Varnish: { headers: { 'X-Varnish': '' } } },
    headers: [['X-Varnish', '32770']],
    expect: [{ name: 'Varnish', confidence: 100 }],
  },
  {
    title: 'Set-Cookie lines are header lines too: the second cookie line matches an anchored pattern',
    engine: inBothModes('the engine gets a repeated header as one value, its lines joined by a newline, so `^` anchors only at the first line'),
    technologies: { Empretienda: { headers: { 'set-cookie': '^EMPRETIENDA_SESSION' } } },
    cookies: ['lang=es; Path=/', 'EMPRETIENDA_SESSION=abc; Path=/; HttpOnly'],
    expect: [{ name: 'Empretienda', confidence: 100 }],
  },
  {
    title: 'an optional version capture that did not match gives no version, not "\\1"',
    technologies: { PHP: { cats: [27], headers: { 'X-Powered-By': '^php/?([\\d.]+)?\\;version:\\1' } } },
    headers: [['X-Powered-By', 'PHP']],
    expect: [{ name: 'PHP', confidence: 100 }],
  },
  {
    title: 'a header pattern with \\;confidence:50',
    technologies: { Kestrel: { headers: { Server: '^Kestrel\\;confidence:50' } } },
    headers: [['Server', 'Kestrel']],
    expect: [{ name: 'Kestrel', confidence: 50 }],
  },
  {
    title: 'a header that does not match, and a rule for a header the response lacks',
    technologies: { IIS: { headers: { Server: '^Microsoft-IIS' } }, Envoy: { headers: { 'x-envoy-upstream-service-time': '' } } },
    headers: [['Server', 'Apache']],
    expect: [],
  },
];

export const cookieCases: TechCase[] = [
  {
    title: 'a cookie name with an empty pattern: any value',
    technologies: { PHP: { cats: [27], cookies: { PHPSESSID: '' } } },
    cookies: ['PHPSESSID=abc123; Path=/'],
    expect: [{ name: 'PHP', confidence: 100 }],
  },
  {
    title: 'a cookie value pattern with a version capture',
    technologies: { Shopware: { cookies: { 'sw-version': '^([\\d.]+)$\\;version:\\1' } } },
    cookies: ['sw-version=6.5.8; Path=/'],
    expect: [{ name: 'Shopware', version: '6.5.8', confidence: 100 }],
  },
  {
    title: 'cookie names compared without case',
    technologies: { 'Microsoft ASP.NET': { cookies: { 'ASP.NET_SessionId': '' } } },
    cookies: ['asp.net_sessionid=xyz; Path=/'],
    expect: [{ name: 'Microsoft ASP.NET', confidence: 100 }],
  },
  {
    title: 'the `_ga_*` wildcard matches a GA4 cookie whatever its container id',
    engine: inBothModes('the engine renames only cookies matching /_ga_[A-Z0-9]+/, after lowercasing their names, so `_ga_*` never matches `_ga_ABC123XYZ`'),
    technologies: { 'Google Analytics': { cookies: { '_ga_*': '\\;version:GA4' } } },
    cookies: ['_ga_ABC123XYZ=GS1.1.1700000000.1.0.1700000000.0.0.0; Path=/'],
    expect: [{ name: 'Google Analytics', version: 'GA4', confidence: 100 }],
  },
  {
    title: 'every cookie of the response is tested',
    technologies: { Laravel: { cookies: { laravel_session: '' } }, 'Cloudflare Bot Management': { cookies: { __cf_bm: '' } } },
    cookies: ['XSRF-TOKEN=t; Path=/', 'laravel_session=s; Path=/; HttpOnly', '__cf_bm=b; Path=/'],
    expect: [
      { name: 'Cloudflare Bot Management', confidence: 100 },
      { name: 'Laravel', confidence: 100 },
    ],
  },
  {
    title: "a cookie the page's script sets is in the browser's cookie jar only",
    technologies: { Hotjar: { cookies: { _hjSessionUser_123: '' } } },
    page: `<!doctype html><html><head><title>x</title><script>document.cookie = '_hjSessionUser_123=eyJ; path=/';</script></head><body></body></html>`,
    expect: { fetch: [], render: [{ name: 'Hotjar', confidence: 100 }] },
  },
];
