import { convertV2, type CollectionResult } from 'openapi-to-postmanv2';
import { apis, serviceVersion, type ApiName } from '../api/api-names.js';
import type { AnyRoute } from '../api/route.js';
import { buildOpenApi, documentedRoutes } from './build.js';
import type { Json } from './json-schema.js';

/** The parts of a Postman v2.1 collection this module reads or changes. */
interface PmParam { key: string; value?: string; disabled?: boolean; description?: unknown }
interface PmRequest {
  method: string;
  header?: PmParam[];
  auth?: Json;
  url: { path?: string[]; query?: PmParam[]; variable?: PmParam[] };
  body?: { mode?: string; raw?: string };
}
interface PmItem { name: string; item?: PmItem[]; request?: PmRequest; response?: unknown[] }

/** Where the examples send requests; the collection makes them variables so a run can aim elsewhere. */
export const exampleTarget = { url: 'https://example.com', host: 'example.com' };

/** Path variables no reply hands out: their user sets them (the mailed verification `token`). */
const userSupplied = ['token'];

/**
 * Collection-level test script: every request must succeed; a PNG asked for with `clip` must
 * be that region (its IHDR size: clip × scale); and ids a reply hands out (`job_id`, `id`)
 * become the variables the requests after it use in their paths.
 */
const testScript = (captured: string[]) => [
  "pm.test('answers with a success status', function () {",
  '  pm.expect(pm.response.code, pm.response.text().slice(0, 300)).to.be.within(200, 299);',
  '});',
  'var sent = pm.request.url.query.toObject(true);',
  "if (sent.clip && (pm.response.headers.get('Content-Type') || '').indexOf('image/png') === 0) {",
  "  pm.test('the image is the clip region', function () {",
  "    var clip = sent.clip.split(',').map(Number), scale = Number(sent.scale || 1), png = pm.response.stream;",
  '    pm.expect([png.readUInt32BE(16), png.readUInt32BE(20)]).to.eql([clip[2] * scale, clip[3] * scale]);',
  '  });',
  '}',
  "if ((pm.response.headers.get('Content-Type') || '').indexOf('json') !== -1) {",
  '  var body = pm.response.json();',
  `  ${JSON.stringify(captured)}.forEach(function (name) {`,
  "    if (body && typeof body[name] === 'string') pm.collectionVariables.set(name, body[name]);",
  '  });',
  '}',
];

/**
 * Collection-level pre-request script: `targetHost` follows `targetUrl` unless set, so a run
 * that names only its site checks that site's TLS; a request needing a value only its user
 * has (`token`, from the verification mail) is skipped, saying so, until it is given.
 */
const preRequestScript = (userSupplied: string[]) => [
  "if (!pm.variables.get('targetHost')) {",
  "  var site = /^[a-z][a-z0-9+.-]*:\\/\\/([^/?#]+)/i.exec(pm.variables.get('targetUrl') || '');",
  "  if (site) pm.variables.set('targetHost', site[1]);",
  '}',
  `${JSON.stringify(userSupplied)}.forEach(function (name) {`,
  "  if (pm.request.url.toString().indexOf('{{' + name + '}}') !== -1 && !pm.variables.get(name)) {",
  "    console.info(pm.info.requestName + ': skipped; run with --env-var ' + name + '=… to send it');",
  '    pm.execution.skipRequest();',
  '  }',
  '});',
];

let cached: { routes: AnyRoute[]; base: string; collection: Promise<Json> } | undefined;

/**
 * A Postman v2.1 collection of every API, converted from the OpenAPI documents by Postman's
 * own converter (openapi-to-postmanv2): one folder per API. `baseUrl`, `apiKey`, `targetUrl`
 * and `targetHost` are collection variables; the key header is on every request that takes a
 * key; bodies and parameters come from the documents' examples. Built once per route list.
 */
export function buildPostman(routes: AnyRoute[], baseUrl: string): Promise<Json> {
  if (cached?.routes !== routes || cached.base !== baseUrl) {
    const entry = { routes, base: baseUrl, collection: convertAll(routes, baseUrl) };
    // A failed conversion is not kept: the next request tries again.
    entry.collection.catch(() => {
      if (cached === entry) cached = undefined;
    });
    cached = entry;
  }
  return cached.collection;
}

async function convertAll(routes: AnyRoute[], baseUrl: string): Promise<Json> {
  const names = (Object.keys(apis) as ApiName[]).filter((n) => documentedRoutes(routes, n).length);
  const captured = new Set<string>();
  const folders: PmItem[] = [];
  for (const name of names) {
    const doc = buildOpenApi(name, routes, baseUrl);
    const converted = (await convert(doc)) as { item: PmItem[] };
    const requests = leaves(converted.item);
    for (const item of requests) adjust(item, doc, captured);
    folders.push({ name: apis[name].title, item: requests });
  }
  return {
    info: {
      name: 'SiteLens API',
      version: serviceVersion,
      description: `Every operation of the SiteLens APIs (service version ${serviceVersion}), generated from ${baseUrl}/openapi/{name}. Set apiKey (create one with POST /api/keys); targetUrl and targetHost are the site the examples analyse.`,
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    variable: [
      { key: 'baseUrl', value: baseUrl },
      { key: 'apiKey', value: '' },
      { key: 'targetUrl', value: exampleTarget.url },
      { key: 'targetHost', value: '', description: 'Host (and port) of the TLS check; empty: the host of targetUrl' },
      ...[...captured].map((key) => ({ key, value: '' })),
    ],
    event: [
      { listen: 'prerequest', script: { type: 'text/javascript', exec: preRequestScript(userSupplied.filter((v) => captured.has(v))) } },
      { listen: 'test', script: { type: 'text/javascript', exec: testScript([...captured].filter((v) => !userSupplied.includes(v))) } },
    ],
    item: folders,
  };
}

function convert(doc: Json): Promise<unknown> {
  return new Promise((resolve, reject) => {
    convertV2(
      { type: 'json', data: doc },
      { parametersResolution: 'Example', enableOptionalParameters: false, folderStrategy: 'Tags', includeAuthInfoInExample: false },
      (err, result?: CollectionResult) => {
        const data = result?.output?.[0]?.data;
        if (err || !result?.result || !data) reject(new Error(`OpenAPI to Postman conversion failed: ${err?.message ?? result?.reason}`));
        else resolve(data);
      },
    );
  });
}

/** The requests of a converted document, in document order, without the converter's folders. */
function leaves(items: PmItem[]): PmItem[] {
  return items.flatMap((i) => (i.item ? leaves(i.item) : [i]));
}

type DocParam = { name: string; in: string; required?: boolean; example?: unknown; schema?: { enum?: unknown[]; default?: unknown } };

/**
 * Makes a converted request runnable: the key header on, parameters from the examples (an
 * optional one is sent only when the document gives it an example), path ids taken from
 * variables that earlier replies fill, and example targets turned into variables.
 */
function adjust(item: PmItem, doc: Json, captured: Set<string>) {
  const req = item.request;
  if (!req) return;
  const path = `/${(req.url.path ?? []).map((s) => s.replace(/^:(\w+)$/, '{$1}')).join('/')}`;
  const op = ((doc.paths as Record<string, Record<string, Json>>)[path] ?? {})[req.method.toLowerCase()];
  if (!op) throw new Error(`converted request ${req.method} ${path} matches no operation`);
  const params = (op.parameters as DocParam[]) ?? [];
  const takesKey = (op.security as unknown[]).length > 0;

  req.auth = { type: 'noauth' };
  req.header = (req.header ?? []).filter((h) => h.key.toLowerCase() !== 'x-api-key');
  if (takesKey) req.header.push({ key: 'X-API-Key', value: '{{apiKey}}', description: 'Your API key (collection variable apiKey)' });

  for (const q of req.url.query ?? []) {
    const p = params.find((x) => x.in === 'query' && x.name === q.key);
    if (!p) continue;
    q.disabled = !(p.required || p.example !== undefined);
    q.value = q.disabled ? String(p.schema?.default ?? '') : valueFor(p, captured);
  }
  for (const v of req.url.variable ?? []) {
    const p = params.find((x) => x.in === 'path' && x.name === v.key);
    if (p) v.value = valueFor(p, captured);
  }
  if (req.body?.raw) req.body.raw = targets(req.body.raw);
  item.response = [];
}

/**
 * A parameter's example, default or first allowed value; otherwise a collection variable
 * named after it, which a reply fills (`job_id`) or the user sets (a mailed `token`).
 */
function valueFor(p: DocParam, captured: Set<string>): string {
  const given = p.example ?? p.schema?.default ?? p.schema?.enum?.[0];
  if (given !== undefined) return targets(String(given));
  captured.add(p.name);
  return `{{${p.name}}}`;
}

/** Example targets become `{{targetUrl}}` / `{{targetHost}}`, so a run can aim at its own site. */
function targets(text: string): string {
  return text.split(exampleTarget.url).join('{{targetUrl}}').replace(/(^|[^\w.-])example\.com(?![\w.-])/g, '$1{{targetHost}}');
}
