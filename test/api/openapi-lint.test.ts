import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import type { ApiName } from '../../server/api/api-names.js';
import { startTestService, type TestService } from '../support/service.js';
import { fetchDocs, keyRule, operations, type OpenApiDoc } from './support/openapi-docs.js';

const run = promisify(execFile);

/** The linters as a consumer runs them, from this checkout's node_modules, offline. */
const linterEnv = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
const redocly = path.resolve('node_modules/@redocly/cli/bin/cli.js');
const spectral = path.resolve('node_modules/@stoplight/spectral-cli/dist/index.js');

/** Runs a linter that exits non-zero on findings; its JSON report is what counts. */
async function lint(args: string[]): Promise<string> {
  try {
    return (await run(process.execPath, args, { env: linterEnv, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (err) {
    const out = (err as { stdout?: string }).stdout;
    if (out) return out;
    throw err;
  }
}

describe('OpenAPI documents', function () {
  this.timeout(120_000);
  let svc: TestService;
  let docs: Record<ApiName, OpenApiDoc>;
  let dir: string;
  let files: string[];

  before(async () => {
    svc = await startTestService();
    docs = await fetchDocs(svc);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sitelens-openapi-'));
    files = [];
    for (const [name, doc] of Object.entries(docs)) {
      const file = path.join(dir, `${name}.json`);
      await fs.writeFile(file, JSON.stringify(doc, null, 2));
      files.push(file);
    }
  });
  after(async () => {
    await svc?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('Redocly\'s recommended rules find no error and no warning in any document', async () => {
    const problems: string[] = [];
    for (const file of files) {
      const report = JSON.parse(await lint([redocly, 'lint', file, '--extends=recommended', '--format=json'])) as {
        problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }>;
      };
      for (const p of report.problems) problems.push(`${path.basename(file)} ${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('Spectral\'s spectral:oas ruleset finds no error and no warning in any document', async () => {
    // Nothing of spectral:oas is turned off.
    const ruleset = path.join(dir, 'ruleset.json');
    await fs.writeFile(ruleset, JSON.stringify({ extends: ['spectral:oas'] }));
    const out = await lint([spectral, 'lint', ...files, '--ruleset', ruleset, '--format', 'json', '--quiet']);
    const results = JSON.parse(out || '[]') as Array<{ code: string; severity: number; message: string; path: string[]; source: string }>;
    // Severity 0 is an error, 1 a warning.
    const problems = results.filter((r) => r.severity <= 1).map((r) => `${path.basename(r.source)} ${r.code} ${r.path.join('.')}: ${r.message}`);
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('every operation documents 429 and 503 with Retry-After, 500, and RateLimit-* on its successes, all errors with the error schema', () => {
    const missing: string[] = [];
    for (const { path: p, method, op } of operations(docs)) {
      const at = `${method.toUpperCase()} ${p}`;
      for (const status of ['429', '500', '503']) if (!op.responses[status]) missing.push(`${at}: ${status}`);
      for (const status of ['429', '503']) if (!op.responses[status]?.headers?.['Retry-After']) missing.push(`${at}: Retry-After on ${status}`);
      for (const [status, res] of Object.entries(op.responses)) {
        if (status.startsWith('2') && !res.headers?.['RateLimit-Remaining']) missing.push(`${at}: RateLimit-Remaining on ${status}`);
        const json = res.content?.['application/json']?.schema;
        if (Number(status) >= 400 && json?.$ref !== '#/components/schemas/Error') missing.push(`${at}: error schema on ${status}`);
      }
    }
    expect(missing, missing.join('\n')).to.deep.equal([]);
  });

  it('security follows the key rule: none, optional (an empty requirement first) or required; keyed operations document 401', () => {
    const wrong: string[] = [];
    for (const { path: p, method, op } of operations(docs)) {
      const rule = keyRule(op);
      const schemes = op.security.flatMap((s) => Object.keys(s));
      if (rule !== 'none' && !['apiKeyHeader', 'bearer', 'apiKeyQuery'].every((s) => schemes.includes(s))) wrong.push(`${method} ${p}: schemes ${schemes}`);
      if (rule !== 'none' && !op.responses['401']) wrong.push(`${method} ${p}: no 401`);
      if (op.parameters.some((x) => x.in === 'query' && x.name === 'key')) wrong.push(`${method} ${p}: key as a parameter (it is the apiKeyQuery scheme)`);
    }
    expect(wrong, wrong.join('\n')).to.deep.equal([]);
    expect(keyRule(docs.seo.paths['/api/seo'].get)).to.equal('optional');
    expect(keyRule(docs.charts.paths['/api/charts/render'].post)).to.equal('required');
    expect(keyRule(docs.keys.paths['/api/health'].get)).to.equal('none');
  });

  it('_notice is documented on the JSON successes of every operation a key would change, and only there', () => {
    const wrong: string[] = [];
    for (const { path: p, method, op } of operations(docs)) {
      for (const [status, res] of Object.entries(op.responses)) {
        const schema = res.content?.['application/json']?.schema as { properties?: Record<string, unknown> } | undefined;
        if (!status.startsWith('2') || !schema?.properties) continue;
        const has = '_notice' in schema.properties;
        if (keyRule(op) === 'optional' && !has) wrong.push(`${method} ${p} ${status}: no _notice`);
        if (keyRule(op) !== 'optional' && has) wrong.push(`${method} ${p} ${status}: _notice on an operation a key does not change`);
      }
    }
    expect(wrong, wrong.join('\n')).to.deep.equal([]);
    expect(docs.seo.paths['/api/seo'].get.responses['200'].content?.['application/json'].schema).to.have.nested.property('properties._notice.type', 'string');
  });

  it('no document carries zod\'s ±(2^53 − 1) integer bounds (doc tools show them as examples)', () => {
    for (const [name, doc] of Object.entries(docs)) expect(JSON.stringify(doc), name).to.not.match(/9007199254740991/);
  });

  it('GET /openapi/{name} answers 404 for names that are no API, also Object.prototype\'s', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'nope']) {
      const r = await svc.call(`/openapi/${name}`);
      expect(r.status, name).to.equal(404);
      expect(r.body.error, name).to.include('known: deadlinks');
    }
  });
});
