import { expect } from 'chai';
import { buildOpenApi } from '../../server/openapi/build.js';
import { allRoutes } from '../../server/api/routes/index.js';
import { startTestService, type TestService } from '../support/service.js';
import { html, serve, status, type FixtureServer } from './fixture-site.js';

describe('GET /api/deadlinks, result cache and bot protection', () => {
  let svc: TestService;
  let site: FixtureServer;
  let ext: FixtureServer;
  let key: string;
  const get = (q: string) => svc.call(`/api/deadlinks?${q}`, { headers: { 'x-api-key': key } });

  before(async () => {
    ext = await serve(
      {
        // Bot protection that lets real browsers through.
        '/guarded': (req, res) =>
          /Chrome/.test(req.headers['user-agent'] ?? '') ? status(200)(req, res) : status(403, { 'cf-mitigated': 'challenge' })(req, res),
      },
      '127.0.0.2',
    );
    site = await serve({
      '/': html(`<a href="/a">a</a><a href="/b">b</a><a href="/gone">g</a><a href="${ext.url}/guarded">guarded</a>`),
      '/a': html('a'),
      '/b': html('b'),
      '/gone': status(404),
    });
    svc = await startTestService();
    key = await svc.newKey('business');
  });
  after(async () => {
    await svc?.close();
    await site?.close();
    await ext?.close();
  });

  it('a second check of the same site reuses cached results (ok and failures) without contacting the links again', async () => {
    const url = encodeURIComponent(site.url + '/');
    const first = await get(`mode=quick&url=${url}`);
    expect(first.body.summary.cached_results).to.equal(0);
    const hitsAfterFirst = site.hits.filter((h) => h !== 'GET /').length;
    const second = await get(`mode=quick&url=${url}`);
    expect(second.body.summary.cached_results).to.equal(4);
    expect(second.body.broken_links.map((i: any) => i.url)).to.deep.equal([`${site.url}/gone`]);
    expect(site.hits.filter((h) => h !== 'GET /').length).to.equal(hitsAfterFirst);
  });

  it('quick mode lists a bot-protected link as bot_blocked; full mode asks the browser, which loads it', async function () {
    this.timeout(60_000);
    const url = encodeURIComponent(site.url + '/');
    const quick = await get(`mode=quick&url=${url}`);
    expect(quick.body.bot_blocked.map((i: any) => i.url)).to.deep.equal([`${ext.url}/guarded`]);
    const full = await get(`mode=full&url=${url}`);
    expect(full.body.bot_blocked).to.deep.equal([]);
    expect(full.body.broken_links.map((i: any) => i.url)).to.deep.equal([`${site.url}/gone`]);
  });

  it('/openapi/deadlinks documents every parameter, format and item field', async () => {
    const doc: any = buildOpenApi('deadlinks', allRoutes(svc.deps), svc.url);
    expect(doc.info.version).to.equal('2.5.0');
    const op = doc.paths['/api/deadlinks'].get;
    const params = op.parameters.map((p: any) => p.name);
    expect(params).to.include.members(['url', 'github', 'mode', 'max_pages', 'max_duration', 'format', 'threshold', 'max_broken', 'check_only', 'fragments', 'render', 'exclude', 'accept']);
    for (const p of op.parameters) expect(p.description, p.name).to.be.a('string');
    expect(op.parameters.find((p: any) => p.name === 'format').schema.enum).to.deep.equal(['json', 'csv', 'github', 'markdown', 'sarif']);
    expect(op.parameters.find((p: any) => p.name === 'threshold').schema).to.include({ type: 'number', minimum: 0, maximum: 100 });
    const item = op.responses['200'].content['application/json'].schema.properties.broken_links.items;
    expect(Object.keys(item.properties)).to.include.members(['url', 'status', 'kind', 'type', 'found_on', 'redirect_chain', 'file', 'line', 'column', 'locations']);
    for (const [name, prop] of Object.entries<any>(item.properties)) expect(prop.description, name).to.be.a('string');
    expect(doc.paths).to.have.keys('/api/deadlinks', '/api/deadlinks/documents', '/api/deadlinks/status', '/api/deadlinks/badge', '/widget.js');
    const documents = doc.paths['/api/deadlinks/documents'].post;
    const body = documents.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).to.include.members(['documents', 'paths', 'only_lines', 'repository_url', 'exclude', 'accept', 'check_only', 'fragments', 'format', 'threshold', 'max_broken', 'max_duration']);
    for (const [name, prop] of Object.entries<any>(body.properties)) expect(prop.description, name).to.be.a('string');
    expect(body.properties.threshold).to.include({ type: 'number', minimum: 0, maximum: 100 });
    expect(documents.responses).to.include.keys('200', '400', '413', '429');
    const served = await svc.call('/openapi/deadlinks');
    expect(served.status).to.equal(200);
  });
});
