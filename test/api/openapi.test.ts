import { expect } from 'chai';
import { Validator } from '@seriousme/openapi-schema-validator';
import { apis, type ApiName } from '../../server/api/api-names.js';
import { allRoutes } from '../../server/api/routes/index.js';
import { startTestService, type TestService } from '../support/service.js';

describe('discovery', () => {
  let svc: TestService;
  before(async () => (svc = await startTestService()));
  after(async () => svc.close());

  const names = Object.keys(apis) as ApiName[];
  for (const name of names) {
    it(`GET /openapi/${name}, is a valid OpenAPI 3.1 document with the API's version`, async () => {
      const res = await svc.call(`/openapi/${name}`);
      expect(res.status).to.equal(200);
      const result = await new Validator().validate(res.body);
      expect(result.errors ?? [], JSON.stringify(result.errors)).to.deep.equal([]);
      expect(result.valid).to.equal(true);
      expect(res.body.openapi).to.equal('3.1.0');
      expect(res.body.info.version).to.equal(apis[name].version);
    });
  }

  it('every route that exists appears in its API document', async () => {
    for (const route of allRoutes(svc.deps).filter((r) => !r.hidden)) {
      const doc = (await svc.call(`/openapi/${route.api}`)).body;
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      expect(doc.paths[path]?.[route.method], `${route.method} ${route.path} in /openapi/${route.api}`).to.be.an('object');
    }
  });

  it('GET /openapi/{unknown}, answers 404 JSON naming the known APIs', async () => {
    const res = await svc.call('/openapi/nope');
    expect(res.status).to.equal(404);
    expect(res.body.error).to.include('deadlinks');
  });

  it('GET /api/health, reports every field and maps APIs to paths', async () => {
    const res = await svc.call('/api/health');
    expect(res.status).to.equal(200);
    expect(res.body).to.include.keys('status', 'uptime_seconds', 'uptime_human', 'apis', 'docs', 'pricing', 'openapi');
    expect(res.body.status).to.equal('ok');
    expect(res.body.uptime_seconds).to.be.a('number');
    for (const name of ['deadlinks', 'seo', 'screenshot', 'perf', 'techstack', 'ssl', 'html2image', 'audit', 'charts']) {
      expect(res.body.apis[name], name).to.equal(apis[name as ApiName].path);
    }
    expect(res.body.openapi).to.equal(`${svc.url}/openapi/{name}`);
  });

  it('GET /postman.json and /apis.json, list every API', async () => {
    const postman = (await svc.call('/postman.json')).body;
    expect(postman.info.schema).to.match(/collection\/v2\.1\.0/);
    expect(postman.item.map((f: { name: string }) => f.name)).to.include.members(names.map((n) => apis[n].title));
    const apisJson = (await svc.call('/apis.json')).body;
    expect(apisJson.version).to.equal('3.0.0');
    expect(apisJson.apis).to.have.length(names.length);
  });

  it('GET /, serves a readable docs page whose reference loads offline', async () => {
    const page = await svc.call('/');
    expect(page.headers.get('content-type')).to.include('text/html');
    expect(page.text).to.include('Getting started').and.include('/openapi/deadlinks');
    const asset = await svc.call('/docs/ui/swagger-ui-bundle.js');
    expect(asset.status).to.equal(200);
    expect(asset.buffer.length).to.be.greaterThan(100_000);
  });

  it('GET /metrics, exposes request counts and durations by route', async () => {
    await svc.call('/api/health');
    const text = (await svc.call('/metrics')).text;
    expect(text).to.match(/http_requests_total\{route="\/api\/health",method="GET",status="200"\} \d+/);
    expect(text).to.include('http_request_duration_seconds_bucket');
  });
});

describe('malformed requests', () => {
  let svc: TestService;
  before(async () => (svc = await startTestService()));
  after(async () => svc.close());

  it('an unknown route answers 404 JSON, not HTML', async () => {
    const res = await svc.call('/api/nothing-here');
    expect(res.status).to.equal(404);
    expect(res.body.error).to.match(/no route for GET \/api\/nothing-here/);
  });

  it('malformed JSON answers 400', async () => {
    const res = await svc.call('/api/keys', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":' });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal('request body is not valid JSON');
  });

  it('a JSON endpoint sent another content type answers 415', async () => {
    const res = await svc.call('/api/keys', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'email=x' });
    expect(res.status).to.equal(415);
    expect(res.body.error).to.match(/application\/json/);
  });

  it('an oversize body answers 413', async () => {
    const res = await svc.call('/api/keys', { method: 'POST', json: { email: 'a'.repeat(2_000_000) } });
    expect(res.status).to.equal(413);
    expect(res.body.error).to.match(/larger than the limit/);
  });

  it('unknown body fields answer 400 naming them', async () => {
    const res = await svc.call('/api/keys', { method: 'POST', json: { mail: 'x@example.com' } });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.match(/unknown field\(s\): mail/);
  });
});

describe('validation messages', () => {
  let svc: TestService;
  before(async () => (svc = await startTestService()));
  after(async () => svc.close());

  it('an empty required parameter says it must not be empty', async () => {
    const res = await svc.call('/api/verify?token=');
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal('token must not be empty');
  });
});
