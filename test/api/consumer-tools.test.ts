import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import newman, { type Summary } from 'newman';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import type { ApiName } from '../../server/api/api-names.js';
import { JSON_BODY_LIMIT_BYTES } from '../../server/api/route.js';
import { allRoutes } from '../../server/api/routes/index.js';
import { makeLeaf, startTlsServer } from '../analysis/support/certs.js';
import { html, startFixtureSite } from '../analysis/support/fixture-site.js';
import { startTestService, type TestService } from '../support/service.js';
import { documentedType, fetchDocs, fillPath, keyRule, operations, type DocumentedOperation, type OpenApiDoc } from './support/openapi-docs.js';

/** One real reply, matched to the operation that documents it. */
interface Reply {
  d: DocumentedOperation;
  how: string;
  status: number;
  contentType: string | null;
  body: unknown;
}

const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fixture home</title>
<meta name="description" content="A small loopback site the API examples are pointed at."></head>
<body><h1>Fixture home</h1><p>Hello.</p><a href="/about">About</a><img src="/logo.svg" alt="Logo"></body></html>`;

/**
 * The API as a direct consumer meets it: Postman's collection run by newman, and a client
 * typed by openapi-typescript. Every request goes to this machine's loopback: the collection's
 * target variables point at a fixture site and a TLS fixture.
 */
describe('the API through a consumer\'s tools', function () {
  this.timeout(300_000);
  let svc: TestService;
  let key: string;
  let docs: Record<ApiName, OpenApiDoc>;
  let run: Summary;
  const replies: Reply[] = [];
  const closers: Array<() => Promise<unknown>> = [];

  before(async () => {
    const site = await startFixtureSite({
      '/': html(page),
      '/about': html('<!doctype html><title>About</title><h1>About</h1><a href="/">Home</a>'),
      '/logo.svg': (_req, res) => void res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>'),
    });
    const tls = await startTlsServer(await makeLeaf({ names: ['localhost'] }));
    svc = await startTestService({}, { workers: true });
    closers.push(() => svc.close(), () => tls.close(), () => site.close());
    key = await svc.newKey('business');
    const { token } = await svc.deps.keys.create('newman@example.com');
    docs = await fetchDocs(svc);

    const collection = (await svc.call('/postman.json')).body;
    run = await new Promise<Summary>((resolve, reject) =>
      newman.run(
        {
          collection,
          envVar: [
            { key: 'baseUrl', value: svc.url },
            { key: 'apiKey', value: key },
            { key: 'targetUrl', value: `${site.url}/` },
            { key: 'targetHost', value: `localhost:${tls.port}` },
            { key: 'token', value: token ?? '' },
          ],
          timeoutRequest: 120_000,
        },
        (err, summary) => (err ? reject(err) : resolve(summary)),
      ),
    );
    for (const ex of run.run.executions) {
      const template = `/${(ex.item.request.url.path ?? []).map((s) => s.replace(/^:(\w+)$/, '{$1}')).join('/')}`;
      const d = operations(docs).find((o) => o.path === template && o.method === ex.item.request.method.toLowerCase());
      if (!d || !ex.response) continue;
      const contentType = ex.response.headers.get('Content-Type') ?? null;
      const text = ex.response.stream?.toString('utf8') ?? '';
      replies.push({ d, how: `newman: ${ex.item.name}`, status: ex.response.code, contentType, body: /json/.test(contentType ?? '') ? JSON.parse(text) : text });
    }
    for (const d of operations(docs)) replies.push(...(await appReplies(d)));
  });

  after(async () => {
    for (const close of closers) await close();
  });

  /** The replies the app itself gives around the handler, each provoked once for the operation. */
  async function appReplies(d: DocumentedOperation): Promise<Reply[]> {
    const rule = keyRule(d.op);
    const [type, media] = Object.entries(d.op.requestBody?.content ?? {})[0] ?? [];
    const body = media ? (type === 'application/json' ? JSON.stringify(media.example ?? {}) : String(media.example ?? '')) : undefined;
    const send = async (how: string, init: { query?: string; key?: string; type?: string; body?: string }) => {
      const headers: Record<string, string> = {};
      if (init.key) headers['X-API-Key'] = init.key;
      if (init.type) headers['Content-Type'] = init.type;
      const r = await svc.call(`${fillPath(d)}${init.query ?? ''}`, { method: d.method.toUpperCase(), headers, body: init.body });
      return { d, how, status: r.status, contentType: r.headers.get('content-type'), body: r.body ?? r.text } satisfies Reply;
    };
    const out: Reply[] = [];
    if (d.op.responses['400']) out.push(await send('an unknown query parameter', { query: '?zz_unknown=1', key, type, body }));
    if (rule === 'required') out.push(await send('no key', { type, body }));
    if (rule !== 'none') out.push(await send('a key that does not exist', { key: 'sl_no_such_key', type, body }));
    // Routes that show any key's status (usage, key info) answer a suspended key; the others document 403.
    if (d.op.responses['403']) {
      const suspended = await svc.newKey();
      await svc.setKey(suspended, { status: 'suspended' });
      out.push(await send('a suspended key', { key: suspended, type, body }));
    }
    if (type) {
      out.push(await send('another media type', { key, type: type === 'application/json' ? 'text/plain' : 'application/json', body: '{}' }));
      // Past the route's own body limit (the documents endpoint takes more than the app's default).
      const route = allRoutes(svc.deps).find((r) => r.path.replace(/:(\w+)/g, '{$1}') === d.path && r.method === d.method);
      const over = (route?.jsonBodyMaxBytes ?? JSON_BODY_LIMIT_BYTES) + 100_000;
      out.push(await send('an oversize body', { key, type, body: type === 'application/json' ? JSON.stringify({ x: 'a'.repeat(over) }) : 'a'.repeat(over) }));
    }
    return out;
  }

  it('newman runs the collection converted from the OpenAPI documents: every request green', () => {
    const failures = run.run.failures.map((f) => `${f.source?.name}: ${f.error.message}`);
    expect(failures, failures.join('\n')).to.deep.equal([]);
    const requests = run.run.executions.map((e) => `${e.item.request.method} ${e.item.name}`);
    expect(requests).to.have.length(operations(docs).length);
  });

  it('every reply, from newman and from the app\'s own checks, has a status and media type its operation documents', () => {
    expect(replies.length).to.be.greaterThan(operations(docs).length * 2);
    const undocumented = replies
      .filter((r) => documentedType(r.d.op, r.status, r.contentType) === undefined)
      .map((r) => `${r.d.method.toUpperCase()} ${r.d.path} (${r.how}): ${r.status} ${r.contentType}`);
    expect(undocumented, undocumented.join('\n')).to.deep.equal([]);
  });

  it('the app\'s own checks answer what they should: 400, 401, 403, 415, 413', () => {
    const expected: Record<string, number> = {
      'an unknown query parameter': 400,
      'no key': 401,
      'a key that does not exist': 401,
      'a suspended key': 403,
      'another media type': 415,
      'an oversize body': 413,
    };
    const wrong = replies
      .filter((r) => r.how in expected && r.status !== expected[r.how])
      .map((r) => `${r.d.method.toUpperCase()} ${r.d.path} (${r.how}): ${r.status}`);
    expect(wrong, wrong.join('\n')).to.deep.equal([]);
  });

  it('a client typed by openapi-typescript from every document compiles against every JSON reply', async function () {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sitelens-client-'));
    closers.push(() => fs.rm(dir, { recursive: true, force: true }));
    const names = Object.keys(docs) as ApiName[];
    for (const name of names) await fs.writeFile(path.join(dir, `${name}.ts`), astToString(await openapiTS(docs[name] as never)));
    const json = replies.filter((r) => typeof r.body === 'object' && r.body !== null);
    const lines = names.map((n, i) => `import type { paths as P${i} } from './${n}';`);
    json.forEach((r, i) => {
      const p = `P${names.indexOf(r.d.api)}`;
      const media = documentedType(r.d.op, r.status, r.contentType);
      lines.push(`// ${r.d.method.toUpperCase()} ${r.d.path}: ${r.how}`);
      lines.push(`export const r${i}: ${p}[${JSON.stringify(r.d.path)}][${JSON.stringify(r.d.method)}]['responses'][${r.status}]['content'][${JSON.stringify(media)}] = ${JSON.stringify(r.body)};`);
    });
    const file = path.join(dir, 'replies.ts');
    await fs.writeFile(file, lines.join('\n'));
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      skipLibCheck: true,
      types: [],
    });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
      const line = where && d.file ? d.file.text.split('\n')[where.line - 1] : '';
      return `${line}\n  ${ts.flattenDiagnosticMessageText(d.messageText, '\n').slice(0, 600)}`;
    });
    expect(json.length).to.be.greaterThan(operations(docs).length);
    expect(errors, errors.join('\n')).to.deep.equal([]);
  });
});
