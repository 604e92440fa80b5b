import { expect } from 'chai';
import { Validator } from '@seriousme/openapi-schema-validator';
import { z } from 'zod';
import { apis, type ApiName } from '../../server/api/api-names.js';
import { allRoutes } from '../../server/api/routes/index.js';
import { startTestService, type TestService } from '../support/service.js';

/**
 * The APIs.json 0.19 format (apisjson.org; the `apis-json/api-json` spec's schema), written
 * from its rules: the top level takes only its own fields and `X-` extensions; each API needs
 * name, description, image, baseURL, humanURL and properties; property types are the spec's
 * list or `X-` ones; maintainers are vCard-like contacts with `FN`.
 */
const httpUrl = z.string().regex(/^https?:\/\//);
const propertyTypes = [
  'Swagger', 'OpenAPI', 'JSONSchema', 'GraphQLSchema', 'PostmanCollection', 'PostmanWorkspace', 'AsyncAPI', 'RAML', 'Blueprint', 'WADL', 'WSDL',
  'GettingStarted', 'Documentation', 'Authentication', 'Versioning', 'Signup', 'Login', 'TermsOfService', 'InterfaceLicense', 'PrivacyPolicy',
  'DeprecationPolicy', 'ServiceLevelAgreement', 'Security', 'SDKs', 'StatusPage', 'Pricing', 'RateLimits', 'Blog', 'BlogFeed', 'Forums', 'Support',
  'ChangeLog', 'RoadMap', 'Contact', 'ErrorCodes', 'GitHubOrg', 'GitHubRepo', 'Twitter', 'AlertsTwitterHandle', 'Webhooks', 'Integrations', 'OpenAIPluginManifest',
];
const property = z.object({
  type: z.string().refine((t) => propertyTypes.includes(t) || /^X-[A-Za-z0-9-]*$/.test(t), 'a property type of the spec or X-…'),
  url: z.string().optional(),
  data: z.object({}).loose().optional(),
  name: z.string().optional(),
  description: z.string().min(5).optional(),
  mediaType: z.string().optional(),
  tags: z.array(z.string().min(1)).optional(),
});
const contact = z.object({ FN: z.string().min(1), email: z.email().optional(), url: httpUrl.optional() }).loose();
const apisJsonFormat = z
  .object({
    aid: z.string().optional(),
    type: z.enum(['Index', 'Template', 'Example']).optional(),
    name: z.string().min(3).max(50),
    description: z.string().min(5).max(1000),
    url: httpUrl,
    image: z.string().optional(),
    created: z.iso.date().optional(),
    modified: z.iso.date().optional(),
    specificationVersion: z.literal('0.19'),
    apis: z.array(
      z
        .object({
          aid: z.string().optional(),
          name: z.string().min(2),
          description: z.string().min(5),
          image: z.string(),
          baseURL: httpUrl,
          humanURL: httpUrl,
          tags: z.array(z.string().min(1)).optional(),
          properties: z.array(property),
          contact: z.array(contact).optional(),
        })
        .loose(),
    ),
    maintainers: z.array(contact),
    tags: z.array(z.unknown()),
    common: z.array(property).optional(),
  })
  .catchall(z.unknown())
  .superRefine((doc, ctx) => {
    const own = ['aid', 'type', 'position', 'access', 'name', 'description', 'url', 'image', 'created', 'modified', 'specificationVersion', 'apis', 'maintainers', 'tags', 'include', 'common', 'overlays', 'network'];
    for (const k of Object.keys(doc)) {
      if (!own.includes(k) && !k.startsWith('X-')) ctx.addIssue({ code: 'custom', path: [k], message: 'not a field of APIs.json' });
      else if (k.startsWith('X-') && (typeof doc[k] !== 'object' || doc[k] === null)) ctx.addIssue({ code: 'custom', path: [k], message: 'an X- extension must be an object' });
    }
  });

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

  it('GET /postman.json, has a folder per API, baseUrl and apiKey variables, and the key header on for keyed requests', async () => {
    const postman = (await svc.call('/postman.json')).body;
    expect(postman.info.schema).to.match(/collection\/v2\.1\.0/);
    expect(postman.item.map((f: { name: string }) => f.name)).to.include.members(names.map((n) => apis[n].title));
    const vars = Object.fromEntries(postman.variable.map((v: { key: string; value: string }) => [v.key, v.value]));
    expect(vars).to.include({ baseUrl: svc.url, apiKey: '', targetUrl: 'https://example.com', targetHost: '' }); // targetHost follows targetUrl unless set (the collection's pre-request script)
    const seo = postman.item.find((f: { name: string }) => f.name === apis.seo.title).item[0].request;
    expect(seo.header).to.deep.include({ key: 'X-API-Key', value: '{{apiKey}}', description: 'Your API key (collection variable apiKey)' });
    expect(seo.url.query.find((q: { key: string }) => q.key === 'url')).to.include({ value: '{{targetUrl}}', disabled: false });
    expect(JSON.stringify(postman)).to.not.include('"disabled":true,"key":"X-API-Key"');
  });

  it('GET /apis.json, follows the APIs.json 0.19 format and lists every API with its OpenAPI document', async () => {
    const res = await svc.call('/apis.json');
    const parsed = apisJsonFormat.safeParse(res.body);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).to.equal(true);
    expect(res.body.apis.map((a: { name: string }) => a.name)).to.deep.equal(names.map((n) => apis[n].title));
    for (const api of res.body.apis) {
      const openapi = api.properties.find((p: { type: string }) => p.type === 'OpenAPI').url as string;
      expect((await svc.call(openapi.replace(svc.url, ''))).status, openapi).to.equal(200);
    }
    expect(res.body['X-service']).to.deep.equal({ version: '3.0.0' });
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
