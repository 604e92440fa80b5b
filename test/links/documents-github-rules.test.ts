import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';
import { html, serve, type FixtureServer } from './fixture-site.js';

/**
 * POST /api/deadlinks/documents judged by GitHub's rules, on a repository built from the
 * cases of CommonMark's link reference definitions, GitHub's HTML sanitizer, `..` above the
 * root, links at other refs, offline runs and a set split over calls. The repository's host
 * is a GitHub Enterprise-like server on loopback, so its own pages are real links.
 */
describe('POST /api/deadlinks/documents, links as GitHub renders them', () => {
  let svc: TestService;
  let host: FixtureServer;
  let key: string;
  let repo: string;

  before(async () => {
    host = await serve({ '/acme/docs/issues': html('issues'), '/ok': html('ok'), '/acme/docs/blob/v0.9/docs/guide.md': html('guide at v0.9') });
    repo = `${host.url}/acme/docs`;
    svc = await startTestService();
    key = await svc.newKey('business');
  });
  after(async () => {
    await svc?.close();
    await host?.close();
  });

  const post = (body: Record<string, unknown>) => svc.call('/api/deadlinks/documents', { method: 'POST', json: { repository_url: repo, ...body }, headers: { 'x-api-key': key } });
  const at = (items: Array<{ kind: string; url: string; file?: string; line?: number }>) => items.map((i) => `${i.kind} ${i.url} @${i.file}:${i.line}`).sort();

  describe('reference definitions (CommonMark: only used ones are links; labels case-folded and whitespace-collapsed; the first wins)', () => {
    const readme = [
      '# Refs', //                                                  1
      '',
      'Use [Foo] and [the bar][BAR  baz] and ![logo][ẞ].', //      3
      '',
      '[foo]: missing-first.md', //                                 5: used (first [foo])
      '[FOO]: second.md', //                                        6: a second definition of the label: not a link
      '[Bar baz]: ../README.md#no-such', //                         7: used, whitespace and case folded
      '[SS]: img/none.png', //                                      8: used by ![logo][ẞ] (ẞ folds to ss)
      '[Float]: #float', //                                         9: no reference uses it
      '> [quoted]: gone.md', //                                     10: unused, inside a quote
    ].join('\n');
    const body = { documents: [{ path: 'docs/README.md', content: readme }, { path: 'README.md', content: '# Top' }], paths: ['second.md'] };

    it('reports only the definitions a reference uses, at the line of their URL; unused and repeated ones are not links', async () => {
      const r = await post(body);
      expect(r.status, r.text).to.equal(200);
      expect(at(r.body.broken_links)).to.deep.equal(['missing_file docs/img/none.png @docs/README.md:8', 'missing_file docs/missing-first.md @docs/README.md:5']);
      expect(at(r.body.warnings)).to.deep.equal(['missing_fragment README.md#no-such @docs/README.md:7']);
      // docs/missing-first.md, docs/img/none.png, README.md and its judged fragment: nothing of lines 6, 9, 10.
      expect(r.body.total_links_checked).to.equal(4);
      expect(r.body.not_checked).to.deep.equal([]);
    });

    it('unused_definitions: warn lists them as unused_definition warnings at their place, still not checked', async () => {
      const r = await post({ ...body, unused_definitions: 'warn' });
      const unused = r.body.warnings.filter((w: { kind: string }) => w.kind === 'unused_definition');
      expect(at(unused)).to.deep.equal(['unused_definition #float @docs/README.md:9', 'unused_definition gone.md @docs/README.md:10', 'unused_definition second.md @docs/README.md:6']);
      expect(unused.find((w: { url: string }) => w.url === 'second.md').error).to.include('an earlier definition of [FOO] is the one used');
      expect(r.body.total_links_checked).to.equal(4);
      expect(r.body.broken_count).to.equal(2);
    });
  });

  it("raw HTML that GitHub's sanitizer strips is no link (link, script, iframe, video, style, other protocols); what it keeps is", async () => {
    const readme = [
      '<link href="/@global/global.css" rel="stylesheet">', // 1
      '<script src="/missing.js"></script>', //             2
      '<iframe src="/frame.html"></iframe>', //              3
      '<video src="/v.mp4" poster="/p.png"></video>', //     4
      '<div style="background: url(/bg.png)"><img src="/img/none.png" srcset="/img/none@2x.png 2x"></div>', // 5
      '<meta http-equiv="refresh" content="0; url=/moved.html">', // 6
      '',
      '[ftp](ftp://example.invalid/x) ![data](data:image/png;base64,AA) <irc://example.invalid>', // 8
      '',
      '<picture><source media="(prefers-color-scheme: dark)" srcset="/img/dark.png"><img src="/img/light.png"></picture>', // 10
      '<a href="/gone.md" name="here">a</a> <a href="javascript:alert(1)">js</a>', // 11
      '',
      'Inline <script>[in script](/in-script.md)</script> [after](/after.md)', // 13
    ].join('\n');
    const r = await post({ documents: [{ path: 'README.md', content: readme }], paths: ['img/light.png'] });
    expect(r.status, r.text).to.equal(200);
    expect(at(r.body.broken_links)).to.deep.equal([
      'missing_file after.md @README.md:13',
      'missing_file gone.md @README.md:11',
      'missing_file img/dark.png @README.md:10',
      'missing_file img/none.png @README.md:5',
    ]);
    expect(r.body.total_links_checked).to.equal(5);
    expect(r.body.summary.skipped_links, 'stripped links are not links at all, not even skipped ones').to.equal(0);
  });

  it('.. above the root leads to the repository\'s pages as on GitHub: its home exists, its issues are fetched from its host', async () => {
    const r = await post({
      documents: [
        { path: 'README.md', content: '[home](../../) [home too](/../../) [issues](../../issues) [wiki](../../wiki)' },
        { path: 'docs/deep/page.md', content: '[home](../../../../) [file](../../README.md)' },
      ],
    });
    expect(r.status, r.text).to.equal(200);
    expect(at(r.body.broken_links)).to.deep.equal([`http_404 ${repo}/wiki @README.md:1`]);
    expect(host.hits).to.include('HEAD /acme/docs/issues');
    expect(host.hits.filter((h) => h === `HEAD /acme/docs` || h === 'HEAD /acme/docs/'), 'the home is known to exist').to.deep.equal([]);
  });

  it('links to this repository at another ref: against that ref\'s files when sent, else fetched; never against the checkout', async () => {
    const readme = [
      `[current](${repo}/blob/main/docs/guide.md#install)`, //        1: the checkout's ref
      `[tag](${repo}/blob/v1.0/docs/old.md#old-heading)`, //          2: exists at v1.0 only
      `[tag gone](${repo}/blob/v1.0/docs/guide.md)`, //               3: not at v1.0
      `[tag heading](${repo}/blob/v1.0/docs/old.md#nope)`, //         4
      `[unknown ref](${repo}/blob/v0.9/docs/guide.md)`, //            5: fetched: the host has it
      `[unknown ref gone](${repo}/tree/v0.8/docs/new)`, //            6: fetched: 404
      `[branch with slash](${repo}/blob/release/2.x/docs/old.md)`, // 7: the split release/2.x
    ].join('\n');
    const r = await post({
      documents: [
        { path: 'README.md', content: readme },
        { path: 'docs/guide.md', content: '# Guide\n\n## Install\n' },
      ],
      current_refs: ['main'],
      refs: {
        'v1.0': { paths: ['README.md', 'docs/old.md'], anchors: { 'docs/old.md': ['old-heading'] } },
        'release/2.x': { paths: ['docs/old.md'] },
      },
    });
    expect(r.status, r.text).to.equal(200);
    expect(at(r.body.broken_links)).to.deep.equal([`http_404 ${repo}/tree/v0.8/docs/new @README.md:6`, `missing_file ${repo}/blob/v1.0/docs/guide.md @README.md:3`]);
    expect(at(r.body.warnings)).to.deep.equal([`missing_fragment ${repo}/blob/v1.0/docs/old.md#nope @README.md:4`]);
    expect(host.hits.filter((h) => h.includes('/blob/main/') || h.includes('/v1.0/') || h.includes('/release/'))).to.deep.equal([]);
    expect(host.hits).to.include('HEAD /acme/docs/blob/v0.9/docs/guide.md');
  });

  it('offline: nothing is fetched; links that need the network are listed as not checked with their places and left out of the counts', async () => {
    const before = host.hits.length;
    const r = await post({
      offline: true,
      documents: [{ path: 'README.md', content: `[ok](${host.url}/ok) [again](${host.url}/ok#x) [gone](${host.url}/gone)\n[local](docs/none.md) [issues](../../issues) [tag](${repo}/blob/v3/x.md)` }],
    });
    expect(r.status, r.text).to.equal(200);
    expect(host.hits.length, 'no request left the service').to.equal(before);
    expect(at(r.body.not_checked)).to.deep.equal(
      [`offline ${host.url}/gone @README.md:1`, `offline ${host.url}/ok @README.md:1`, `offline ${repo}/blob/v3/x.md @README.md:2`, `offline ${repo}/issues @README.md:2`].sort(),
    );
    expect(r.body.not_checked.find((i: { url: string }) => i.url === `${host.url}/ok`).locations).to.have.length(2);
    expect(at(r.body.broken_links)).to.deep.equal(['missing_file docs/none.md @README.md:2']);
    expect([r.body.total_links_checked, r.body.summary.not_checked, r.body.summary.health_score]).to.deep.equal([1, 4, 0]);
  });

  it('a set split over calls: a fragment into a file sent in another call is judged by the anchors sent with the call; without them it is counted as not judged', async () => {
    const a = { path: 'docs/a.md', content: '[install](b.md#install) [nope](b.md#nope) [code](../src/app.py#L10)' };
    const withAnchors = await post({ documents: [a], paths: ['docs/b.md', 'src/app.py'], anchors: { 'docs/b.md': ['b', 'install'] } });
    expect(at(withAnchors.body.warnings)).to.deep.equal(['missing_fragment docs/b.md#nope @docs/a.md:1']);
    expect(at(withAnchors.body.not_checked)).to.deep.equal(['fragment_not_judged src/app.py#L10 @docs/a.md:1']);
    // docs/b.md, its two fragments, src/app.py.
    expect(withAnchors.body.total_links_checked).to.equal(4);

    const without = await post({ documents: [a], paths: ['docs/b.md', 'src/app.py'] });
    expect(without.body.warnings).to.deep.equal([]);
    expect(at(without.body.not_checked)).to.deep.equal(['fragment_not_judged docs/b.md#install @docs/a.md:1', 'fragment_not_judged docs/b.md#nope @docs/a.md:1', 'fragment_not_judged src/app.py#L10 @docs/a.md:1']);
    expect(without.body.summary.not_checked).to.equal(3);
  });

  it('one definition of each count: internal + external = links checked; broken links are targets, their places counted apart', async () => {
    const r = await post({
      documents: [
        { path: 'a.md', content: `[x](missing.md) [y](missing.md) [z](${host.url}/gone) [ok](${host.url}/ok) [m](mailto:a@b.c)` },
        { path: 'b.md', content: `[x](missing.md) [g](${host.url}/gone)` },
      ],
      list_checked: true,
    });
    const b = r.body;
    expect([b.broken_count, b.summary.broken_places]).to.deep.equal([2, 5]);
    expect(b.summary.internal_links + b.summary.external_links).to.equal(b.total_links_checked);
    expect(b.checked_urls).to.have.length(b.total_links_checked);
    expect(b.checked_internal_urls).to.deep.equal(['missing.md']);
    expect([b.summary.skipped_links, b.skipped_urls]).to.deep.equal([1, ['mailto:a@b.c']]);
    expect(b.summary.health_score).to.equal(Math.round(1000 * (1 - b.broken_count / b.total_links_checked)) / 10);
  });

  it('a Latin-1 Markdown file is decoded as GitHub decodes it, not skipped as binary', async () => {
    const latin1 = Buffer.from('# Caf\xe9\n\nVoir [le guide](guide-fran\xe7ais.md) et [l\xe0](#caf\xe9).\n', 'latin1');
    const r = await post({ documents: [{ path: 'LISEZMOI.md', content: latin1.toString('base64'), encoding: 'base64' }], paths: ['guide-français.md'] });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.summary.skipped_documents).to.equal(0);
    expect(r.body.broken_links).to.deep.equal([]);
    expect(r.body.warnings).to.deep.equal([]);
    expect(r.body.total_links_checked).to.equal(3);
  });
});
