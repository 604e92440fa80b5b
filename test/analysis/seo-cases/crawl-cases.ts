import { body, doc, type SeoCase } from './case.js';

const page = '/test/page.html';
const metaRobots = (content: string, name = 'robots') => doc(`<title>Crawl test page</title><meta name="${name}" content="${content}">`);
const plain = body('<p>Hello</p>');

/** is-crawlable: meta robots / crawler meta, X-Robots-Tag (per crawler), robots.txt, unavailable_after. */
export const isCrawlableCases: SeoCase[] = [
  ...['noindex', 'none', 'foo, noindex, bar', 'all, none, all', '     noindex      ', 'all, unavailable_after: 25 Jun 2010 15:00:00 PST',
    ' Unavailable_after: 25-Aug-2007 15:00:00 EST, all'].map(
    (content): SeoCase => ({
      name: `meta robots "${content}" blocks indexing`,
      check: 'robots_directives',
      html: metaRobots(content),
      expect: 'fail',
      names: { selector: 'head > meta', snippet: `<meta name="robots" content="${content}">` },
    }),
  ),
  { name: 'meta robots "all, noarchive" leaves the page indexable', check: 'robots_directives', html: metaRobots('all, noarchive'), expect: 'pass' },
  { name: 'meta robots "nofollow" leaves the page indexable', check: 'robots_directives', html: metaRobots('nofollow'), expect: 'pass' },
  { name: 'meta robots with unavailable_after in the future', check: 'robots_directives', html: metaRobots('unavailable_after: 25 Jun 2045 15:00:00 PST'), expect: 'pass' },
  { name: 'no robots meta, no header, no robots.txt', check: 'robots_directives', html: plain, expect: 'pass' },
  { name: 'meta robots noindex in <body> is not read', check: 'robots_directives', html: body('<p>x</p><meta name="robots" content="noindex">'), expect: 'pass' },
  ...[['noindex'], ['all', 'none'], ['all, none'], ['unavailable_after: 25 Jun 2010 15:00:00 PST, all'], ['all, unavailable_after: 25-Jun-2010 15:00:00 PST']].map(
    (values): SeoCase => ({
      name: `X-Robots-Tag ${values.map((v) => `"${v}"`).join(' + ')} blocks indexing`,
      check: 'robots_directives',
      html: plain,
      headers: { 'X-Robots-Tag': values },
      expect: 'fail',
      names: { header: `x-robots-tag: ${values[values.length - 1]}` },
    }),
  ),
  {
    name: 'X-Robots-Tag "all, nofollow" and a future unavailable_after leave it indexable',
    check: 'robots_directives',
    html: plain,
    headers: { 'X-Robots-Tag': ['all, nofollow', 'unavailable_after: 25 Jun 2045 15:00:00 PST'] },
    expect: 'pass',
  },
  {
    name: 'X-Robots-Tag scoped to googlebot is not applied to every crawler',
    check: 'robots_directives',
    html: plain,
    headers: { 'X-Robots-Tag': ['googlebot: unavailable_after: 25 Jun 2007 15:00:00 PST', 'unavailable_after: 25 Jun 2045 15:00:00 PST'] },
    expect: 'pass',
  },
  { name: 'X-Robots-Tag "otherbot: none" blocks only that crawler', check: 'robots_directives', html: plain, headers: { 'X-Robots-Tag': 'otherbot: none' }, expect: 'pass' },
  {
    name: 'X-Robots-Tag "bingbot: noindex" and a second, generic "noindex" block everyone',
    check: 'robots_directives',
    html: plain,
    headers: { 'X-Robots-Tag': ['bingbot: noindex', 'noindex'] },
    expect: 'fail',
    names: { header: 'x-robots-tag: noindex' },
  },
  {
    name: '<meta name="googlebot" content="noindex"> blocks Googlebot only (a warning)',
    check: 'robots_directives',
    html: metaRobots('noindex', 'googlebot'),
    expect: 'pass',
    warns: 'blocked from crawling: Googlebot.',
  },
  {
    name: 'meta robots noindex with <meta name="googlebot" content="index"> lets Googlebot index',
    check: 'robots_directives',
    html: doc('<title>t</title><meta name="robots" content="noindex"><meta name="googlebot" content="index">'),
    expect: 'pass',
    warns: 'bingbot, DuckDuckBot, archive.org_bot',
  },
  ...['User-agent: *\nDisallow: /', 'User-agent: *\nDisallow: /test/page.html', 'User-agent: *\nDisallow:\n\nUser-agent: *\nDisallow: /',
    'User-agent: *\nDisallow: /one/\nDisallow: /two/\nDisallow: /test/\nAllow: page.html\n# Allow: /test/page.html\nAllow: /test/page.html /someother/url.html',
    'User-agent: *\nDisallow: /*.html$', 'User-agent: *\nDisallow: /test/*.html'].map(
    (robots): SeoCase => ({
      name: `robots.txt ${JSON.stringify(robots)} disallows ${page}`,
      check: 'robots_directives',
      path: page,
      html: plain,
      robots,
      expect: 'fail',
      names: { reason: 'robots.txt disallows' },
    }),
  ),
  ...['User-agent: SomeBot\nDisallow: /', 'User-agent: *\nDisallow: /_/\nDisallow: /search?q=*\nDisallow: /test/\nAllow: /test/page.html',
    'User-agent: *\nDisallow: /test/page.html\nAllow: /test/page.html', 'User-agent: *\nDisallow: /test\nAllow: /test/page'].map(
    (robots): SeoCase => ({ name: `robots.txt ${JSON.stringify(robots)} allows ${page}`, check: 'robots_directives', path: page, html: plain, robots, expect: 'pass' }),
  ),
  {
    name: 'robots.txt "Disallow: /*.html$" does not match a URL with a query',
    check: 'robots_directives',
    path: `${page}?utm=1`,
    html: plain,
    robots: 'User-agent: *\nDisallow: /*.html$',
    expect: 'pass',
  },
  {
    name: 'robots.txt names the blocking line by number',
    check: 'robots_directives',
    path: page,
    html: plain,
    robots: '# rules\nUser-agent: *\nAllow: /public/\nDisallow: /test/',
    expect: 'fail',
    names: { line: 4, content: 'Disallow: /test/', url: '{origin}/robots.txt' },
  },
  {
    name: 'meta, two headers and robots.txt are each reported',
    check: 'robots_directives',
    path: page,
    html: metaRobots('noindex'),
    headers: { 'X-Robots-Tag': ['none', 'noindex'] },
    robots: 'User-agent: *\nDisallow: /',
    expect: 'fail',
    names: { header: 'x-robots-tag: none' },
  },
  {
    name: 'robots.txt allowing googlebot while disallowing * passes with a warning',
    check: 'robots_directives',
    path: page,
    html: plain,
    robots: 'User-agent: googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /',
    expect: 'pass',
    warns: 'blocked from crawling: bingbot, DuckDuckBot, archive.org_bot.',
  },
  {
    name: 'Googlebot disallowed, bingbot blocked by header, archive.org_bot allowed',
    check: 'robots_directives',
    path: page,
    html: plain,
    headers: { 'X-Robots-Tag': 'bingbot: noindex' },
    robots: 'User-agent: Googlebot\nDisallow: /\n\nUser-agent: bingbot\nAllow: /\n\nUser-agent: archive.org_bot\nAllow: /\n\nUser-agent: *\nDisallow: /',
    expect: 'pass',
    warns: 'blocked from crawling: Googlebot, bingbot, DuckDuckBot.',
  },
  {
    name: 'archive.org_bot blocked by its own meta, DuckDuckBot by robots.txt',
    check: 'robots_directives',
    path: page,
    html: metaRobots('noindex', 'archive.org_bot'),
    robots: 'User-agent: googlebot\nAllow: /\n\nUser-agent: bingbot\nAllow: /\n\nUser-agent: archive.org_bot\nAllow: /\n\nUser-agent: *\nDisallow: /',
    expect: 'pass',
    warns: 'blocked from crawling: DuckDuckBot, archive.org_bot.',
  },
];

const validLong = `User-agent: Twitterbot
Disallow:

User-agent: BadBot
Disallow: / # go away!

Sitemap: https://example.com/sitemap.xml

User-agent: Yandex
Host: https://brainly.com
clean-param: bla

User-agent: Bing
Disallow: /*.swf$
crawl-delay: 10

User-agent: NotOfficial
noindex: /bla
Visit-time: 0600-0845
Request-rate: 1/30m

User-agent: RespectfulAI
Content-Signal: ai-train=yes, search=yes, ai-input=yes
`;

/** robots-txt: which answers pass, which are not applicable, and Lighthouse's line validation. */
export const robotsTxtCases: SeoCase[] = [
  { name: 'a robots.txt whose connection drops fails', check: 'robots_txt', html: plain, robots: 'dropped', expect: 'fail' },
  ...[500, 503, 599].map(
    (status): SeoCase => ({ name: `robots.txt answering ${status} fails`, check: 'robots_txt', html: plain, robots: { status, body: 'There is some content' }, expect: 'fail' }),
  ),
  ...[
    ['Allow: /', 1, 'No user-agent specified'],
    ['syntax error', 1, 'Syntax not understood'],
    ['unknown: directive', 1, 'Unknown directive'],
    ['sitemap: /cant/be/relative.xml', 1, 'Invalid sitemap URL'],
    ["sitemap:#can't be empty", 1, 'Invalid sitemap URL'],
    ['sitemap: mailto:robots@example.com', 1, 'Invalid sitemap URL protocol'],
    ['user-agent: *\nallow: https://cant.be/absolute', 2, 'Pattern should either be empty, start with "/" or "*"'],
    ['user-agent: *\nallow: /dolar/sign$in/the/middle', 2, '"$" should only be used at the end of the pattern'],
    ['user-agent: *\nallow: must/start/with/a/slash', 2, 'Pattern should either be empty, start with "/" or "*"'],
    ['user-agent:\ndisallow: /', 1, 'No user-agent specified'],
    ['User-agent: *\nLicense: https://example.com/license.xml', 2, 'Unknown directive'],
    ['user-agent: *\nallow: /\ndisallow: /test\n\nuser agent: wrong\nalow: /wrong\ndisallow /wrong\n', 5, 'Unknown directive'],
    ['every\nsingle\nline\nis\nwrong\n', 3, 'Syntax not understood'],
  ].map(
    ([robots, line, reason]): SeoCase => ({
      name: `robots.txt ${JSON.stringify(robots)} is not valid`,
      check: 'robots_txt',
      html: plain,
      robots: robots as string,
      expect: 'fail',
      names: { line: line as number, reason: reason as string, content: (robots as string).split('\n')[(line as number) - 1] },
    }),
  ),
  ...[{ status: 404, body: 'invalid content' }, { status: 401, body: 'invalid content' }, { status: 429, body: 'slow down' }, { status: 200, body: '' }].map(
    (robots): SeoCase => ({ name: `robots.txt answering ${robots.status} ${JSON.stringify(robots.body)} is not applicable`, check: 'robots_txt', html: plain, robots, expect: 'na' }),
  ),
  { name: 'no robots.txt at all is not applicable', check: 'robots_txt', html: plain, expect: 'na' },
  ...['#just a comment', 'user-agent:*\ndisallow:', 'USER-AGENT:  *\nALLOW:    /         \nDISALLOW:#comment', validLong, 'Sitemap: ftp://example.com/sitemap.xml'].map(
    (robots): SeoCase => ({ name: `robots.txt ${JSON.stringify(robots.slice(0, 40))} is valid`, check: 'robots_txt', html: plain, robots, expect: 'pass' }),
  ),
  { name: 'robots.txt answering 201 is read and valid', check: 'robots_txt', html: plain, robots: { status: 201, body: 'user-agent:*\ndisallow:' }, expect: 'pass' },
  {
    name: 'robots.txt behind a redirect is followed and validated',
    check: 'robots_txt',
    html: plain,
    robots: { status: 301, body: '/robots-real.txt' },
    routes: { '/robots-real.txt': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisalow: /x') },
    expect: 'fail',
    names: { line: 2, content: 'Disalow: /x', reason: 'Unknown directive' },
  },
];
