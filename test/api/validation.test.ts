import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';

describe('input validation through the running service', () => {
  let svc: TestService;
  let key: string;
  before(async () => {
    svc = await startTestService();
    key = await svc.newKey('business');
  });
  after(async () => svc.close());

  const get = (path: string) => svc.call(path, { headers: { 'X-API-Key': key } });
  const post = (path: string, json: unknown) => svc.call(path, { method: 'POST', json, headers: { 'X-API-Key': key } });

  describe('messages', () => {
    it('a query integer of the wrong type names the parameter, its range and what was given', async () => {
      const r = await get('/api/screenshot?url=https://example.com&width=abc');
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'width must be an integer between 100 and 3840, got "abc"' });
    });

    it('a query integer out of range says the same', async () => {
      const r = await get('/api/deadlinks?url=https://example.com&max_pages=51');
      expect(r.body.error).to.equal('max_pages must be an integer between 1 and 50, got "51"');
    });

    it('a JSON body field of the wrong type names the field, its range and the value', async () => {
      const r = await post('/api/screenshot/batch', { urls: ['https://example.com'], width: 'abc' });
      expect(r.status).to.equal(400);
      expect(r.body.error).to.equal('width must be an integer between 320 and 1920, got "abc"');
    });

    it('a body array item names its index', async () => {
      const r = await post('/api/screenshot/batch', { urls: ['https://example.com', 'ftp://example.com/x'] });
      expect(r.body.error).to.equal('urls[1] must use the http or https scheme, got "ftp://example.com/x"');
    });

    it('an array of the wrong size says the allowed count and the given one', async () => {
      const r = await post('/api/screenshot/batch', { urls: [] });
      expect(r.body.error).to.equal('urls must be an array of 1 to 10 items, got 0 items');
    });

    it('a pattern mismatch says the expected form, not the regex', async () => {
      const github = await get('/api/deadlinks?github=not-a-repo');
      expect(github.body.error).to.equal('github must be owner/repo, got "not-a-repo"');
      const ref = await get('/api/deadlinks?github=owner/repo&ref=..bad');
      expect(ref.body.error).to.equal('ref must be a branch, tag or commit SHA, got "..bad"');
      for (const r of [github, ref]) expect(r.body.error).to.not.match(/regex|pattern/i);
    });

    it('an enum lists its values; a boolean says true or false', async () => {
      const mode = await get('/api/deadlinks?url=https://example.com&mode=fast');
      expect(mode.body.error).to.equal('mode must be one of full, quick, got "fast"');
      const bool = await get('/api/screenshot?url=https://example.com&full_page=maybe');
      expect(bool.body.error).to.equal('full_page must be true or false (1/0 and yes/no also work), got "maybe"');
    });

    it('a missing parameter says it is required; several problems are listed together', async () => {
      const r = await get('/api/screenshot?width=0&format=gif');
      expect(r.body.error).to.equal(
        'url is required; width must be an integer between 100 and 3840, got "0"; format must be one of png, jpeg, webp, pdf, got "gif"',
      );
    });

    it('an empty required string says what it must be and that it was empty', async () => {
      const r = await svc.call('/api/verify?token=');
      expect(r.status).to.equal(400);
      expect(r.body.error).to.equal('token must be a string of 1 to 200 characters, got ""');
    });

    it('a long value is summarised by its length, not echoed', async () => {
      const r = await get(`/api/screenshot?url=https://example.com&js=${'x'.repeat(2001)}`);
      expect(r.body.error).to.equal('js must be a string of at most 2000 characters, got 2001 characters');
    });
  });

  describe('unknown and repeated query parameters', () => {
    it('an unknown query parameter answers 400 naming it and the ones the endpoint takes', async () => {
      const r = await get('/api/ssl?domain=example.com&domian=x&verbose=1');
      expect(r.status).to.equal(400);
      expect(r.body.error).to.equal('unknown query parameters: domian, verbose (this endpoint takes domain and key)');
    });

    it('an endpoint without parameters refuses any but key', async () => {
      const r = await svc.call('/api/health?pretty=1');
      expect(r.status).to.equal(400);
      expect(r.body.error).to.equal('unknown query parameter: pretty (this endpoint takes only key)');
      expect((await svc.call(`/api/usage?key=${key}`)).status).to.equal(200);
    });

    it('a parameter given twice answers 400', async () => {
      const r = await get('/api/ssl?domain=a.example&domain=b.example');
      expect(r.status).to.equal(400);
      expect(r.body.error).to.equal('domain is given 2 times; give it once');
    });

    it('a static asset ignores cache-busting parameters', async () => {
      const r = await svc.call('/widget.js?v=3');
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.match(/javascript/);
    });
  });

  describe('methods', () => {
    it('a known path with the wrong method answers 405 with Allow', async () => {
      const del = await svc.call('/api/seo?url=https://example.com', { method: 'DELETE' });
      expect(del.status).to.equal(405);
      expect(del.headers.get('allow')).to.equal('GET, HEAD, OPTIONS');
      expect(del.body.error).to.equal('DELETE is not allowed on /api/seo; use GET, HEAD, OPTIONS');
      const get = await svc.call('/api/screenshot/batch');
      expect(get.status).to.equal(405);
      expect(get.headers.get('allow')).to.equal('POST, OPTIONS');
      const put = await svc.call('/api/screenshot/status/abc', { method: 'PUT' });
      expect(put.status).to.equal(405);
      expect(put.headers.get('allow')).to.equal('GET, HEAD, OPTIONS');
    });

    it('a path with both methods allows both', async () => {
      const r = await svc.call('/api/keys', { method: 'DELETE' });
      expect(r.status).to.equal(405);
      expect(r.headers.get('allow')).to.equal('POST, GET, HEAD, OPTIONS');
    });

    it('OPTIONS still answers the CORS preflight, and an unknown path stays 404', async () => {
      const pre = await svc.call('/api/screenshot/batch', { method: 'OPTIONS', headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' } });
      expect(pre.status).to.equal(204);
      expect(pre.headers.get('access-control-allow-origin')).to.equal('*');
      expect(pre.headers.get('access-control-allow-methods')).to.include('POST');
      const unknown = await svc.call('/api/nothing', { method: 'DELETE' });
      expect(unknown.status).to.equal(404);
    });
  });
});
