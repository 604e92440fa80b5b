import zlib from 'node:zlib';
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { startTestService, type TestService } from '../support/service.js';
import { html, serve, status, type FixtureServer } from './fixture-site.js';

/** A small repository: Markdown and HTML files with every kind of link the endpoint must judge. */
function repository(site: string) {
  const readme = [
    '# Acme docs', //                                                       1
    '',
    `[Guide](docs/guide.md) and [missing](docs/missing.md) and [dir](docs/)`, // 3
    `[Install](docs/guide.md#install-it) [nope](docs/guide.md#nope) [self](#acme-docs)`, // 4
    `[![badge](${site}/badge.svg)](${site}/ok) and [gone](${site}/gone)`, // 5
    `[own blob](${site}/acme/docs/blob/main/docs/guide.md) [old blob](${site}/acme/docs/tree/main/docs/old)`, // 6
    '```',
    `[in code](${site}/in-code)`, //                                         8
    '```',
    '<!-- [in comment](docs/commented.md) -->', //                           10
    '<p><img src="img/logo.png"> <a href="docs/nowhere.md">raw html</a></p>', // 11
    '',
    `[other ref](${site}/acme/docs/blob/v0.9/gone.md)`, // 13
    `[excluded](${site}/private/x)`, //                                     14
    '[LICENSE line](LICENSE#L3)', //                                          15
  ].join('\n');
  const guide = [
    'Guide', //              1
    '=====',
    '',
    '## Install it', //      4
    '',
    '[Back](../README.md#acme-docs) [Logo](/img/logo.png) [Above the root](../../x.md)', // 6
    '[Broken root](/img/none.png)', // 7
    '- item',
    '',
    '  [ref]: ../README.md#no-such-heading', // 10
    '- [use it][ref]',
  ].join('\n');
  const page = [
    '<!doctype html><html><body>', //                               1
    '<a href="../docs/guide.md#guide">guide</a>', //                2
    '<img srcset="../img/logo.png 1x, ../img/none@2x.png 2x">', //  3
    '<a href="#here">here</a><div id="here"></div><a href="#gone">gone</a>', // 4
    '</body></html>',
  ].join('\n');
  return {
    documents: [
      { path: 'README.md', content: readme },
      { path: 'docs/guide.md', content: guide },
      { path: 'site/index.html', content: page },
    ],
    paths: ['README.md', 'LICENSE', 'docs/guide.md', 'img/logo.png', 'site/index.html'],
  };
}

describe('POST /api/deadlinks/documents', () => {
  let svc: TestService;
  let site: FixtureServer;
  let key: string;

  before(async () => {
    site = await serve({ '/ok': html('ok'), '/badge.svg': status(200, { 'content-type': 'image/svg+xml' }), '/gone': status(410) });
    svc = await startTestService();
    key = await svc.newKey('business');
  });
  after(async () => {
    await svc?.close();
    await site?.close();
  });

  const post = (body: unknown, headers: Record<string, string> = { 'x-api-key': key }) =>
    svc.call('/api/deadlinks/documents', { method: 'POST', json: body, headers });

  it('checks relative links against the paths, fragments against GitHub slugs, the rest over the network, with file, line and column', async () => {
    const r = await post({
      ...repository(site.url),
      // A GitHub Enterprise-like host on loopback: links to its pages are fetched there.
      repository_url: `${site.url}/acme/docs`,
      current_refs: ['main'],
      exclude: ['/private/'],
    });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.mode).to.equal('documents');
    const broken = r.body.broken_links.map((i: any) => `${i.kind} ${i.url} @${i.file}:${i.line}:${i.column}`);
    expect(broken).to.have.members([
      `http_410 ${site.url}/gone @README.md:5:${`[![badge](${site.url}/badge.svg)](${site.url}/ok) and `.length + 1}`,
      // Above the root, GitHub's page of the file leads to the repository's pages: /acme/docs/blob/x.md.
      `http_404 ${site.url}/acme/docs/blob/x.md @docs/guide.md:6:54`,
      // Another ref than the checkout's: fetched, never judged by the current files.
      `http_404 ${site.url}/acme/docs/blob/v0.9/gone.md @README.md:13:1`,
      'missing_file docs/missing.md @README.md:3:28',
      'missing_file docs/nowhere.md @README.md:11:29',
      `missing_file ${site.url}/acme/docs/tree/main/docs/old @README.md:6:${`[own blob](${site.url}/acme/docs/blob/main/docs/guide.md) `.length + 1}`,
      'missing_file img/none.png @docs/guide.md:7:1',
      'missing_file img/none@2x.png @site/index.html:3:1',
    ]);
    const warnings = r.body.warnings.map((i: any) => `${i.kind} ${i.url} @${i.file}:${i.line}`);
    expect(warnings).to.have.members([
      'missing_fragment docs/guide.md#nope @README.md:4',
      'missing_fragment README.md#no-such-heading @docs/guide.md:10',
      'missing_fragment site/index.html#gone @site/index.html:4',
    ]);
    // Nothing from code, comments or excluded links; the badge image was fetched; links at the checkout's ref were not.
    expect(site.hits).not.to.include('HEAD /in-code');
    expect(site.hits).not.to.include('HEAD /private/x');
    expect(site.hits.filter((h) => h.includes('/blob/main/'))).to.deep.equal([]);
    expect(site.hits).to.include('HEAD /badge.svg');
    expect(r.body.summary.skipped_links).to.equal(1);
    // A line anchor into a file that was not sent cannot be judged: counted and listed.
    expect(r.body.not_checked.map((i: any) => `${i.kind} ${i.url} @${i.file}:${i.line}`)).to.deep.equal(['fragment_not_judged LICENSE#L3 @README.md:15']);
    expect(r.body.summary.not_checked).to.equal(1);
    expect(r.body.pages_crawled).to.equal(3);
  });

  it('list_checked lists every link counted in total_links_checked; without it the report has no list', async () => {
    const documents = [
      { path: 'a.md', content: `[ok](${site.url}/ok) [gone](${site.url}/gone) [guide](docs/guide.md) [again](${site.url}/ok)` },
      { path: 'docs/guide.md', content: '# Guide' },
    ];
    const listed = await post({ documents, list_checked: true });
    expect(listed.status, listed.text).to.equal(200);
    expect(listed.body.checked_urls).to.deep.equal(['docs/guide.md', `${site.url}/gone`, `${site.url}/ok`]);
    expect(listed.body.total_links_checked).to.equal(3);
    const plain = await post({ documents });
    expect(plain.body).not.to.have.property('checked_urls');
  });

  it('keeps every occurrence in locations, sorted by file, line and column', async () => {
    const r = await post({
      documents: [
        { path: 'a.md', content: `[x](${site.url}/gone)\n\n  see [again](${site.url}/gone)` },
        { path: 'b.md', content: `<${site.url}/gone>` },
      ],
    });
    const [item] = r.body.broken_links;
    expect(item.locations).to.deep.equal([
      { file: 'a.md', line: 1, column: 1 },
      { file: 'a.md', line: 3, column: 7 },
      { file: 'b.md', line: 1, column: 1 },
    ]);
    expect(item.found_on).to.deep.equal(['a.md', 'b.md']);
  });

  it('with only_lines, checks only links on those lines of the named documents', async () => {
    const r = await post({ ...repository(site.url), only_lines: { 'README.md': [[3, 3]] }, format: 'json' });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.broken_links.map((i: any) => i.url)).to.deep.equal(['docs/missing.md']);
    expect(r.body.total_links_checked).to.equal(3);
    expect(r.body.warnings).to.deep.equal([]);
  });

  it('format=csv and format=github carry file, line and column per occurrence', async () => {
    const body = { documents: [{ path: 'docs/a,b.md', content: 'x\n  [m](missing:colon.md) [n](nope.md)' }], format: 'csv' };
    const csv = await post(body);
    const rows = parse(csv.text, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((x) => [x.url, x.file, x.line, x.column])).to.deep.equal([['docs/nope.md', 'docs/a,b.md', '2', '25']]);
    const gh = await post({ ...body, format: 'github' });
    expect(gh.text.split('\n')[0]).to.equal('::error file=docs/a%2Cb.md,line=2,col=25,title=Broken link (missing_file)::docs/nope.md is broken (missing_file, missing_file)');
  });

  it('format=csv and format=github stay well-formed for any URL and path (%, CR, LF, colon, comma, quotes)', async () => {
    const body = { documents: [{ path: 'site/a:b,c%.html', content: '<a href="http://[x\ny,%z&quot;">bad</a>' }] };
    const csv = await post({ ...body, format: 'csv' });
    const rows = parse(csv.text, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((x) => [x.url, x.kind, x.file])).to.deep.equal([['http://[x\ny,%z"', 'invalid_url', 'site/a:b,c%.html']]);
    const gh = await post({ ...body, format: 'github' });
    const [first] = gh.text.split('\n');
    expect(first).to.equal('::error file=site/a%3Ab%2Cc%25.html,line=1,col=1,title=Broken link (invalid_url)::http://[x%0Ay,%25z" is broken (invalid_url, invalid_url)');
  });

  it('accept counts the listed statuses as working', async () => {
    const r = await post({ documents: [{ path: 'a.md', content: `[g](${site.url}/gone)` }], accept: [410] });
    expect(r.body.broken_count).to.equal(0);
  });

  it('a catastrophic exclude pattern ((a+)+$ against 50 a\'s and a !) is matched in linear time: the call answers promptly', async function () {
    this.timeout(15_000); // a backtracking engine needs hours for this URL
    const evil = `${site.url}/${'a'.repeat(50)}!`;
    const documents = [{ path: 'a.md', content: `[x](${evil}) [y](${site.url}/gone)` }];
    const kept = await post({ documents, exclude: ['(a+)+$', '(x+x+)+y'] });
    expect(kept.status, kept.text).to.equal(200);
    expect(kept.body.broken_links.map((i: any) => i.url)).to.have.members([evil, `${site.url}/gone`]);
    const skipped = await post({ documents, exclude: ['(a+)+!$'] });
    expect(skipped.body.broken_links.map((i: any) => i.url)).to.deep.equal([`${site.url}/gone`]);
    expect(skipped.body.summary.skipped_links).to.equal(1);
  });

  it('reads files of other types as plain text (GFM URL literals, <…> and single-quoted URLs, with line and column), skips binary content and counts it (a PNG, a NUL, a lone surrogate)', async () => {
    const gone = `${site.url}/gone`;
    const documents = [
      { path: 'docs/config.yml', content: `site:\n  home: "${site.url}/ok"\n  old: '${gone}' # retired\n` },
      { path: 'docs/index.rst', content: `Title\n=====\n\nSee \`the page <${gone}>\`_ and ${gone}.\n` },
      { path: 'docs/data.json', content: `{"links":["${gone}","${site.url}/ok"],"www":"www.example.com","mail":"me@example.com"}` },
      { path: 'NOTES', content: `(see ${gone}), or glued:${gone}?\n` },
      { path: 'docs/logo.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]).toString('base64'), encoding: 'base64' },
      { path: 'docs/latin1.txt', content: Buffer.from(`caf\xe9 ${gone}`, 'latin1').toString('base64'), encoding: 'base64' },
      { path: 'docs/nul.txt', content: `x\u0000 ${gone}` },
      { path: 'docs/broken-utf16.txt', content: `\ud800 ${gone}` },
      { path: 'docs/ok.txt', content: Buffer.from(`fine ${site.url}/ok`).toString('base64'), encoding: 'base64' },
      // A single-quoted list (Python, JavaScript, YAML flow): each URL ends at its closing quote.
      { path: 'scripts/links.py', content: `URLS = ['${gone}','${site.url}/ok']\n` },
    ];
    const r = await post({ documents });
    expect(r.status, r.text).to.equal(200);
    const [item] = r.body.broken_links;
    expect(r.body.broken_count).to.equal(1);
    expect(item.url).to.equal(gone);
    expect(item.locations).to.deep.equal([
      { file: 'NOTES', line: 1, column: 6 },
      { file: 'NOTES', line: 1, column: 6 + gone.length + 12 },
      { file: 'docs/config.yml', line: 3, column: 9 },
      { file: 'docs/data.json', line: 1, column: 12 },
      { file: 'docs/index.rst', line: 4, column: 15 },
      { file: 'docs/index.rst', line: 4, column: 15 + gone.length + 9 },
      // Latin-1 text is decoded as GitHub decodes it (ICU's detector), not skipped.
      { file: 'docs/latin1.txt', line: 1, column: 6 },
      { file: 'scripts/links.py', line: 1, column: 10 },
    ]);
    expect(r.body.summary.skipped_documents).to.equal(3);
    expect(r.body.pages_crawled).to.equal(7);
    // ok (twice, once from the base64 UTF-8 file) and gone: nothing else was taken for a URL.
    expect(r.body.total_links_checked).to.equal(2);
  });

  it('an HTML page sent as bytes in a legacy encoding is decoded as a browser decodes it, not skipped', async () => {
    const page = Buffer.from('<meta charset="windows-1252"><a href="caf\xe9.html">caf\xe9</a> <a href="menu.html">m</a>', 'latin1');
    const r = await post({ documents: [{ path: 'site/index.html', content: page.toString('base64'), encoding: 'base64' }], paths: ['site/café.html'] });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.broken_links.map((i: any) => `${i.url} ${i.file}:${i.line}:${i.column}`)).to.deep.equal(['site/menu.html site/index.html:1:59']);
    expect(r.body.summary.skipped_documents).to.equal(0);
  });

  it('site_root: HTML documents under it resolve root-relative links (and <base href>) as the built site serves them; Markdown and other HTML keep the repository root', async () => {
    const paths = ['_site/css/main.css', '_site/about/index.html', '_site/img/logo.png', '_site/blog/index.html', 'css/repo.css'];
    const documents = [
      {
        path: '_site/index.html',
        content: [
          '<link rel="stylesheet" href="/css/main.css">', //                      1
          '<a href="/about/">About</a> <a href="/about">About</a>', //            2
          '<img src="/img/logo.png"> <img src="/img/none.png">', //               3
          '<a href="../../../about/">climbs, and stays at the root</a>', //      4
          '<a href="/css/repo.css">the repository root is not the site</a>', // 5
        ].join('\n'),
      },
      { path: '_site/blog/post.html', content: '<base href="/">\n<a href="about/">about</a> <a href="blog/">blog</a> <a href="nope/">nope</a>' },
      { path: '_site/blog/away.html', content: `<base href="${site.url}/">\n<a href="gone">away</a>` },
      { path: '_site/blog/bad-base.html', content: '<base href="http://[">\n<a href="../img/logo.png">logo</a>' },
      { path: '_site/README.md', content: '[css](/css/main.css) [repo css](/css/repo.css)' },
      { path: 'docs/page.html', content: '<link rel="stylesheet" href="/css/main.css"><link rel="stylesheet" href="/css/repo.css">' },
    ];
    const r = await post({ documents, paths, site_root: '_site' });
    expect(r.status, r.text).to.equal(200);
    const places = r.body.broken_links.flatMap((i: any) => i.locations.map((l: any) => `${i.kind} ${i.url} @${l.file}:${l.line}:${l.column}`));
    expect(places).to.have.members([
      'missing_file _site/img/none.png @_site/index.html:3:27',
      'missing_file _site/css/repo.css @_site/index.html:5:1',
      'missing_file _site/nope/ @_site/blog/post.html:2:53',
      `http_410 ${site.url}/gone @_site/blog/away.html:2:1`,
      'missing_file css/main.css @_site/README.md:1:1',
      'missing_file css/main.css @docs/page.html:1:1',
    ]);
    const without = await post({ documents, paths });
    const missing = without.body.broken_links.filter((i: any) => i.locations.some((l: any) => l.file === '_site/index.html')).map((i: any) => i.url);
    expect(missing, 'without site_root every asset of the built site is a false missing_file').to.include.members(['css/main.css', 'about/', 'img/logo.png']);
    const bad = await post({ documents, paths, site_root: '../elsewhere' });
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.match(/^site_root must be a path inside the repository/);
  });

  it('gates on a decimal threshold with the same rule as GET /api/deadlinks', async () => {
    // 3 links, 1 broken: health 66.7.
    const documents = [{ path: 'a.md', content: `[a](${site.url}/ok) [b](${site.url}/badge.svg) [c](${site.url}/gone)` }];
    const pass = await post({ documents, threshold: 66.7 });
    expect(pass.body.summary.health_score).to.equal(66.7);
    expect(pass.body).to.include({ pass: true });
    const fail = await post({ documents, threshold: 66.75 });
    expect(fail.body).to.include({ pass: false });
    expect(fail.body.gate).to.deep.equal({ threshold: 66.75 });
    const bad = await post({ documents, threshold: 100.01 });
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.match(/^threshold must be/);
  });

  it('answers 413 naming the limit when a tier sends too many documents or bytes', async () => {
    const many = Array.from({ length: 51 }, (_, i) => ({ path: `d${i}.md`, content: '# x' }));
    const keyless = await post({ documents: many }, {});
    expect(keyless.status).to.equal(413);
    expect(keyless.body.limit).to.deep.equal({ max_documents: 50, max_bytes: 524288 });
    expect(keyless.body.error).to.match(/51 documents.*50 per call/);

    const free = await svc.newKey('free');
    const big = await post({ documents: [{ path: 'big.md', content: 'a'.repeat(2 * 1024 * 1024 + 1) }] }, { 'x-api-key': free });
    expect(big.status).to.equal(413);
    expect(big.body.limit).to.deep.equal({ max_documents: 200, max_bytes: 2 * 1024 * 1024 });
  });

  it('max_duration: past the budget, answers with what was checked and timed_out, the unchecked links not reported broken', async function () {
    this.timeout(60_000);
    const slow = await serve({ '/hang': () => undefined, '/fine': html('fine') });
    try {
      const r = await post({
        documents: [{ path: 'README.md', content: `[hang](${slow.url}/hang) [fine](${slow.url}/fine) [file](missing.md)` }],
        max_duration: 10,
      });
      expect(r.status, r.text).to.equal(200);
      // At the budget, not at the link's timeout: the page that never answers is unchecked, not a broken `timeout`.
      expect(r.body.timed_out).to.equal(true);
      expect(r.body.broken_links.map((i: any) => `${i.kind} ${i.url}`)).to.deep.equal(['missing_file missing.md']);
      expect(r.body.total_links_checked, 'the file and the page that answered; not the one still waiting').to.equal(2);
    } finally {
      await slow.close();
    }
  });

  it('answers 400 naming the field and index for bad paths', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ documents: [{ path: 'ok.md', content: '' }, { path: '../up.md', content: '' }] }, /documents\[1\]\.path must be a path inside the repository/],
      [{ documents: [{ path: '/abs.md', content: '' }] }, /documents\[0\]\.path must be a path inside/],
      [{ documents: [{ path: 'a\u0000.md', content: '' }] }, /documents\[0\]\.path must be a path inside/],
      [{ documents: [{ path: 'a.bin', content: '%%%', encoding: 'base64' }] }, /documents\[0\]\.content must be base64/],
      [{ documents: [{ path: 'a.md', content: '' }], paths: ['ok', 'x/../../y'] }, /paths\[1\] must be a path inside/],
      [{ documents: [{ path: 'a.md', content: '' }], only_lines: { 'a.md': [[5, 2]] } }, /only_lines\.a\.md\[0\] must be \[from, to\]/],
      [{ documents: [{ path: 'a.md', content: '' }], exclude: ['('] }, /exclude\[0\] must be a valid RE2 regular expression, got "\(": missing closing \)/],
      [{ documents: [{ path: 'a.md', content: '' }], exclude: ['ok', '(a)\\1'] }, /exclude\[1\] must be a valid RE2 regular expression, got "\(a\)\\\\1": .*no lookahead, lookbehind or backreferences/],
      [{ documents: [{ path: 'a.md', content: '' }], accept: [42] }, /accept\[0\] must be/],
      [{ documents: [] }, /documents must be an array of at least 1/],
      [{ documents: [{ path: 'a.md', content: '' }], colour: 'red' }, /unknown field\(s\): colour/],
    ];
    for (const [body, message] of cases) {
      const r = await post(body);
      expect(r.status, JSON.stringify(body)).to.equal(400);
      expect(r.body.error).to.match(message);
    }
  });
});

describe('POST /api/deadlinks/documents, transport and reading limits', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ LINK_DOCUMENTS_BODY_MAX_BYTES: String(1024 * 1024), LINK_EXTRACT_TIMEOUT_MS: '300' });
  });

  it('reports a document that takes too long to read as unreadable, and still checks the others', async function () {
    this.timeout(60_000);
    const key = await svc.newKey('business');
    const hostile = '*a '.repeat(3000) + 'x' + ' a*'.repeat(3000); // emphasis runs: a CommonMark parser's slow path
    const r = await svc.call('/api/deadlinks/documents', {
      method: 'POST',
      headers: { 'x-api-key': key },
      json: { documents: [{ path: 'slow.md', content: hostile }, { path: 'fine.md', content: '[x](missing.md)' }] },
    });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.broken_links.map((i: any) => `${i.kind} ${i.url} ${i.file}:${i.line}`)).to.have.members([
      'unreadable slow.md slow.md:1',
      'missing_file missing.md fine.md:1',
    ]);
    expect(r.body.broken_links.find((i: any) => i.kind === 'unreadable').error).to.match(/longer than 0.3 s/);
  });

  it('reads every other document of a set read in batches, those before and after a document that takes too long', async function () {
    this.timeout(60_000);
    const key = await svc.newKey('business');
    const hostile = '*a '.repeat(3000) + 'x' + ' a*'.repeat(3000);
    const fine = Array.from({ length: 30 }, (_, i) => ({ path: `f${i}.md`, content: `# F\n\n[x](gone-${i}.md)` }));
    const r = await svc.call('/api/deadlinks/documents', {
      method: 'POST',
      headers: { 'x-api-key': key },
      json: { documents: [...fine.slice(0, 13), { path: 'slow.md', content: hostile }, ...fine.slice(13)] }, // batches of 4 on 2 threads: slow.md is second in its batch
    });
    expect(r.status, r.text).to.equal(200);
    const found = r.body.broken_links.map((i: any) => `${i.kind} ${i.url}`);
    expect(found).to.have.members(['unreadable slow.md', ...fine.map((_, i) => `missing_file gone-${i}.md`)]);
  });
  after(async () => svc?.close());

  it('answers a clean 413 before reading it all', async () => {
    const key = await svc.newKey('business');
    const r = await svc.call('/api/deadlinks/documents', {
      method: 'POST',
      headers: { 'x-api-key': key },
      json: { documents: [{ path: 'a.md', content: 'x'.repeat(1024 * 1024 + 10) }] },
    });
    expect(r.status).to.equal(413);
    expect(r.body.error).to.match(/larger than the limit of 1048576 bytes/);
  });

  const gzipped = (key: string, body: unknown, encoding = 'gzip') =>
    svc.call('/api/deadlinks/documents', {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'content-encoding': encoding },
      body: zlib.gzipSync(JSON.stringify(body)),
    });

  it('takes a gzip body (Content-Encoding: gzip) as the same documents', async () => {
    const key = await svc.newKey('business');
    const documents = { documents: [{ path: 'README.md', content: '# Title\n\n[x](missing.md) [t](#title)' }], paths: ['README.md'] };
    const [plain, packed] = [await svc.call('/api/deadlinks/documents', { method: 'POST', headers: { 'x-api-key': key }, json: documents }), await gzipped(key, documents)];
    expect(packed.status, packed.text).to.equal(200);
    expect(packed.body.broken_links).to.deep.equal(plain.body.broken_links);
    expect(packed.body.broken_links.map((i: any) => i.url)).to.deep.equal(['missing.md']);
  });

  it('limits a gzip body by what it inflates to (413), and answers 415 for an encoding it cannot read', async () => {
    const key = await svc.newKey('business');
    // ~2 MiB of JSON that gzips to a few KiB: the limit is on the inflated body.
    const bomb = await gzipped(key, { documents: [{ path: 'a.md', content: 'x'.repeat(2 * 1024 * 1024) }] });
    expect(bomb.status, bomb.text).to.equal(413);
    expect(bomb.body.error).to.match(/larger than the limit of 1048576 bytes/);
    const odd = await gzipped(key, { documents: [] }, 'x-unknown');
    expect(odd.status, odd.text).to.equal(415);
    expect(odd.body.error).to.match(/x-unknown/);
  });
});
