import { expect } from 'chai';
import { serve, type FixtureServer } from '../links/fixture-site.js';
import { createApiClient } from '../../actions/shared/src/api-client.js';

describe('actions/shared api client', () => {
  let api: FixtureServer;
  let busy = 0;
  let flaky = 0;

  before(async () => {
    api = await serve({
      '/busy': (_req, res) => {
        if (busy++ < 2) return void res.writeHead(429, { 'retry-after': '7', 'content-type': 'application/json' }).end('{"error":"slow down"}');
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      },
      '/gateway': (_req, res) => {
        if (flaky++ < 1) return void res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad Gateway</h1>');
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      },
      '/target-down': (_req, res) => void res.writeHead(502, { 'content-type': 'application/json' }).end('{"error":"the target could not be loaded"}'),
      '/bad': (_req, res) => void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"width must be between 320 and 1920"}'),
    });
  });
  after(() => api?.close());

  const client = (waits: number[]) =>
    createApiClient({ baseUrl: api.url, key: 'k', sleep: async (ms) => void waits.push(ms) });

  it('a 429 is retried after its Retry-After', async () => {
    const waits: number[] = [];
    expect(await client(waits).get('/busy')).to.deep.equal({ ok: true });
    expect(waits).to.deep.equal([7000, 7000]);
  });

  it('a gateway 502 is retried; the API\'s own 502 (target unreachable) is not', async () => {
    const waits: number[] = [];
    expect(await client(waits).get('/gateway')).to.deep.equal({ ok: true });
    expect(waits).to.deep.equal([1000]);
    const err = await client([]).get('/target-down').catch((e: Error) => e);
    expect((err as Error).message).to.equal('GET /target-down failed (502): the target could not be loaded');
  });

  it('an error reply surfaces the API\'s error message', async () => {
    const err = await client([]).post('/bad', {}).catch((e: Error) => e);
    expect(err).to.include({ name: 'ApiError', status: 400, message: 'POST /bad failed (400): width must be between 320 and 1920' });
  });

  it('a query never appears in a failure line', async () => {
    const err = await client([]).get('/bad', { url: 'https://example.com/?a=1', exclude: ['x', 'y'] }).catch((e: Error) => e);
    expect((err as Error).message).to.equal('GET /bad failed (400): width must be between 320 and 1920');
    expect(api.hits.at(-1)).to.equal('GET /bad');
  });
});
