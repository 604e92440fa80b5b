import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { freePort, startTestService, type TestService } from '../support/service.js';
import { html, serve, status, type FixtureServer } from './fixture-site.js';

/** The loopback GitHub API stand-in: records every call with its Authorization header. */
async function githubStandIn(readme: string, featureReadme = `# On the feature branch\n\n[Setup](docs/setup.md)\n`) {
  const calls: Array<{ path: string; auth?: string }> = [];
  const json = (code: number, body: unknown) => (req: any, res: any) => {
    calls.push({ path: req.url, auth: req.headers.authorization });
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = await serve({
    '/repos/acme/docs': json(200, { full_name: 'acme/docs', default_branch: 'main' }),
    '/repos/acme/docs/readme': (req: any, res: any) =>
      json(200, { path: 'README.md', encoding: 'base64', content: Buffer.from(/[?&]ref=feature\b/.test(req.url) ? featureReadme : readme).toString('base64') })(req, res),
    '/repos/acme/docs/contents/docs/setup.md': json(200, { type: 'file', path: 'docs/setup.md' }),
    '/repos/acme/docs/contents/docs/missing.md': json(404, { message: 'Not Found' }),
    '/repos/acme/none': json(404, { message: 'Not Found' }),
    '/repos/acme/none/readme': json(404, { message: 'Not Found' }),
  });
  return { server, calls };
}

describe('GET /api/deadlinks?github=owner/repo', () => {
  let svc: TestService;
  let site: FixtureServer;
  let gh: Awaited<ReturnType<typeof githubStandIn>>;
  let key: string;

  before(async () => {
    site = await serve({ '/ok': html('ok'), '/gone': status(410) });
    const readme = [
      '# Acme docs', //                                   1
      '',
      `See [the site](${site.url}/ok) and [old page](${site.url}/gone).`, // 3
      '',
      '## Install', //                                    5
      `![logo](${site.url}/logo.png)`, //                 6
      '- [Setup](docs/setup.md) and [Missing](docs/missing.md)', // 7
      '- [Jump](#install) [Nowhere](#nope)', //           8
      '```sh',
      `curl ${site.url}/in-code-block`, //                10
      '```',
      `Again: <${site.url}/gone> and [mail](mailto:x@y.z)`, // 12
    ].join('\n');
    gh = await githubStandIn(readme);
    svc = await startTestService({ GITHUB_API_URL: gh.server.url, GITHUB_TOKEN: 'test-token' });
    key = await svc.newKey('business');
  });
  after(async () => {
    await svc?.close();
    await gh?.server.close();
    await site?.close();
  });

  it('checks the README links with file and line, repository paths through the contents API', async () => {
    const r = await svc.call('/api/deadlinks?github=acme/docs', { headers: { 'x-api-key': key } });
    expect(r.status, r.text).to.equal(200);
    const broken = r.body.broken_links.map((i: any) => [i.url, i.kind, i.file, i.lines]);
    expect(broken).to.deep.equal([
      [`${site.url}/gone`, 'http_410', 'README.md', [3, 12]],
      [`${site.url}/logo.png`, 'http_404', 'README.md', [6]],
      ['https://github.com/acme/docs/blob/main/docs/missing.md', 'http_404', 'README.md', [7]],
    ]);
    expect(r.body.warnings.map((i: any) => [i.kind, i.line])).to.deep.equal([['missing_fragment', 8]]);
    expect(r.body).to.include({ mode: 'github', repository: 'acme/docs', file: 'README.md', target: 'https://github.com/acme/docs' });
    expect(r.body.summary.broken_images).to.equal(1);
    expect(site.hits).not.to.include('HEAD /in-code-block');
    expect(gh.calls.map((c) => c.path)).to.include('/repos/acme/docs/contents/docs/setup.md?ref=main');
    expect(gh.calls.every((c) => c.auth === 'Bearer test-token')).to.equal(true);
  });

  it('format=github annotates the file and every line', async () => {
    const r = await svc.call('/api/deadlinks?github=acme/docs&format=github', { headers: { 'x-api-key': key } });
    const errors = r.text.split('\n').filter((l) => l.startsWith('::error '));
    expect(errors.map((l) => /^::error file=([^,]+),line=(\d+),/.exec(l)?.slice(1).join(':'))).to.deep.equal([
      'README.md:3',
      'README.md:12',
      'README.md:6',
      'README.md:7',
    ]);
  });

  it('format=csv fills file and line, one row per occurrence', async () => {
    const r = await svc.call('/api/deadlinks?github=acme/docs&format=csv', { headers: { 'x-api-key': key } });
    const rows = parse(r.text, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((x) => `${x.file}:${x.line}`)).to.deep.equal(['README.md:3', 'README.md:12', 'README.md:6', 'README.md:7']);
  });

  it('with ref, checks the README of that branch and resolves repository links against it', async () => {
    const r = await svc.call('/api/deadlinks?github=acme/docs&ref=feature', { headers: { 'x-api-key': key } });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.broken_count).to.equal(0);
    expect(r.body.total_links_checked).to.equal(1);
    const paths = gh.calls.map((c) => c.path);
    expect(paths).to.include('/repos/acme/docs/readme?ref=feature');
    expect(paths).to.include('/repos/acme/docs/contents/docs/setup.md?ref=feature');
  });

  it('for a repository that does not exist, answers 404', async () => {
    const r = await svc.call('/api/deadlinks?github=acme/none', { headers: { 'x-api-key': key } });
    expect(r.status).to.equal(404);
    expect(r.body.error).to.match(/acme\/none/);
  });
});

describe('GET /api/deadlinks?github=owner/repo on real-world Markdown', () => {
  let svc: TestService;
  let site: FixtureServer;
  let gh: FixtureServer;
  let key: string;
  let readme: string[];

  before(async () => {
    site = await serve({ '/badge.svg': status(200), '/gone-target': status(410), '/wiki/Foo_(bar)': html('wiki') });
    readme = [
      '# Project `tool` docs', //                                     1
      'Setup', //                                                     2
      '=====', //                                                     3
      '## Setup', //                                                  4
      '<a name="custom"></a>', //                                     5
      `[![build](${site.url}/badge.svg)](${site.url}/gone-target)`, // 6
      `[wiki](${site.url}/wiki/Foo_(bar)) [spaced](<docs/setup guide.md>)`, // 7
      `[multi`, //                                                    8
      `line](${site.url}/multi-gone)`, //                             9
      '- item', //                                                    10
      '',
      '  [ref]: /docs/setup.md', //                                   12
      '- [use][ref]', //                                              13
      `<p><img src="${site.url}/raw-html-gone.png"></p>`, //          14
      '',
      `\`[code](${site.url}/in-span)\``, //                           16
      `<!-- [c](${site.url}/in-comment) -->`, //                      17
      '[a](#project-tool-docs) [b](#setup-1) [c](#custom) [d](#SETUP) [e](#missing) [f](#%zz) [g](docs/%E0%A4%A.md)', // 18
    ];
    const json = (body: unknown, code = 200) => (_req: any, res: any) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    gh = await serve({
      '/repos/acme/tool': json({ default_branch: 'main' }),
      '/repos/acme/tool/readme': json({ path: 'README.md', encoding: 'base64', content: Buffer.from(readme.join('\n')).toString('base64') }),
      '/repos/acme/tool/contents/docs/setup.md': json({ type: 'file' }),
      '/repos/acme/tool/contents/docs/setup%20guide.md': json({ type: 'file' }),
    });
    svc = await startTestService({ GITHUB_API_URL: gh.url });
    key = await svc.newKey('business');
  });
  after(async () => {
    await svc?.close();
    await gh?.close();
    await site?.close();
  });

  it('finds every link form with line and column, resolves root-relative links in the repository, and slugs headings as GitHub does', async () => {
    const r = await svc.call('/api/deadlinks?github=acme/tool', { headers: { 'x-api-key': key } });
    expect(r.status, r.text).to.equal(200);
    const broken = r.body.broken_links.map((i: any) => `${i.kind} ${i.url.replace(site.url, 'SITE')} ${i.line}:${i.column}`);
    expect(broken).to.have.members([
      'http_410 SITE/gone-target 6:1',
      'http_404 SITE/multi-gone 8:1',
      'http_404 SITE/raw-html-gone.png 14:4',
      `http_404 https://github.com/acme/tool/blob/main/docs/%25E0%25A4%25A.md 18:${readme[17].indexOf('[g]') + 1}`,
    ]);
    expect(r.body.warnings.map((i: any) => i.url.replace(/^.*#/, '#')).sort()).to.deep.equal(['#%zz', '#missing']);
    expect(gh.hits).to.include('GET /repos/acme/tool/contents/docs/setup.md');
    expect(gh.hits).to.include('GET /repos/acme/tool/contents/docs/setup%20guide.md');
    expect(site.hits.some((h) => /in-span|in-comment/.test(h))).to.equal(false);
    expect(site.hits).to.include('HEAD /wiki/Foo_(bar)');
  });

  it('answers 400 for github values that are not a repository', async () => {
    for (const value of ['acme/..', 'acme/.', '../etc', 'acme', 'acme/tool/extra']) {
      const r = await svc.call(`/api/deadlinks?github=${encodeURIComponent(value)}`, { headers: { 'x-api-key': key } });
      expect(r.status, value).to.equal(400);
      expect(r.body.error, value).to.match(/^github must be owner\/repo/);
    }
  });
});

describe('GET /api/deadlinks?github=owner/repo, when the GitHub API cannot be reached', () => {
  it('answers 502 naming the GitHub API and the failure\'s kind, not the url parameter the caller did not give', async () => {
    const svc = await startTestService({ GITHUB_API_URL: `http://127.0.0.1:${await freePort()}` });
    try {
      const r = await svc.call('/api/deadlinks?github=acme/docs', { headers: { 'x-api-key': await svc.newKey('business') } });
      expect(r.status, r.text).to.equal(502);
      expect(r.body.error).to.match(/^the GitHub API could not be reached \(refused\): /);
    } finally {
      await svc.close();
    }
  });

  it('a GitHub API whose name does not resolve: 502 naming the GitHub API and dns, not url', async () => {
    const svc = await startTestService({ GITHUB_API_URL: 'http://no-such-host.invalid' });
    try {
      const r = await svc.call('/api/deadlinks?github=acme/docs', { headers: { 'x-api-key': await svc.newKey('business') } });
      expect(r.status, r.text).to.equal(502);
      expect(r.body.error).to.match(/^the GitHub API could not be reached \(dns\): /);
      expect(r.body.error).not.to.match(/\burl\b/);
    } finally {
      await svc.close();
    }
  });
});
