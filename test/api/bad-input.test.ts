import { expect } from 'chai';
import { z } from 'zod';
import { allRoutes } from '../../server/api/routes/index.js';
import { exampleOf, jsonSchema } from '../../server/openapi/json-schema.js';
import type { AnyRoute } from '../../server/api/route.js';
import { startTestService, type TestService } from '../support/service.js';

interface Case { route: AnyRoute; param: string; value: string | undefined; why: string }
type PropSchema = { type?: string; minimum?: number; maximum?: number; enum?: unknown[]; format?: string; pattern?: string };

/**
 * The bad-input table (query strings here, JSON bodies in the second test), derived from every route's own query schema so a new endpoint is
 * covered the day it lands: each required parameter missing, each bounded integer out of
 * range and not a number, each enum given a value outside it, each patterned string given a
 * value off its pattern → 400 JSON naming the parameter, what it must be and what was given.
 */
function cases(routes: AnyRoute[]): Case[] {
  const out: Case[] = [];
  for (const route of routes) {
    if (!route.query || route.method !== 'get' || route.hidden) continue;
    const js = z.toJSONSchema(route.query, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, PropSchema>; required?: string[] };
    for (const [param, s] of Object.entries(js.properties ?? {})) {
      if (param === 'key') continue;
      if (js.required?.includes(param)) out.push({ route, param, value: undefined, why: 'missing' });
      if (s.type === 'integer' || s.type === 'number') {
        out.push({ route, param, value: 'abc', why: 'not a number' });
        if (s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER) out.push({ route, param, value: String(s.maximum + 1), why: 'above maximum' });
        if (s.minimum !== undefined && s.minimum > Number.MIN_SAFE_INTEGER) out.push({ route, param, value: String(s.minimum - 1), why: 'below minimum' });
      }
      if (s.enum) out.push({ route, param, value: 'not-a-choice', why: 'outside the enum' });
      if (s.pattern && !new RegExp(s.pattern).test('@@')) out.push({ route, param, value: '@@', why: 'off its pattern' });
    }
  }
  return out;
}

describe('bad input table', function () {
  let svc: TestService;
  let key: string;
  before(async () => {
    svc = await startTestService();
    key = await svc.newKey('business');
  });
  after(async () => svc.close());

  it('covers every GET route with a query schema', async () => {
    const table = cases(allRoutes(svc.deps));
    expect(table.length).to.be.greaterThan(2);
    const failures: string[] = [];
    for (const c of table) {
      const qs = c.value === undefined ? '' : `?${c.param}=${encodeURIComponent(c.value)}`;
      const path = c.route.path.replace(/:(\w+)/g, 'x');
      const res = await svc.call(path + qs, { headers: { 'X-API-Key': key } });
      const error = typeof res.body?.error === 'string' ? res.body.error : '';
      const said = c.value === undefined ? `${c.param} is required` : `${c.param} must `;
      const ok = res.status === 400 && error.includes(said) && (c.value === undefined || error.includes(`got ${JSON.stringify(c.value)}`)) && !/regex|Invalid/.test(error);
      if (!ok) failures.push(`${c.route.path} ${c.param} ${c.why}: ${res.status} ${res.text.slice(0, 200)}`);
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });

  it('covers every JSON body: each required field missing, each number given "abc", each enum and string given the wrong thing, each URL, e-mail or patterned string given "str"', async () => {
    const failures: string[] = [];
    let count = 0;
    for (const route of allRoutes(svc.deps).filter((r) => r.body && !r.hidden)) {
      const js = jsonSchema(route.body as z.ZodType, 'input') as { properties?: Record<string, PropSchema>; required?: string[] };
      const example = exampleOf(js) as Record<string, unknown> | undefined;
      expect(example, `${route.path} has a body example`).to.be.an('object');
      const bodyCases: Array<[string, unknown, string]> = [];
      for (const [field, prop] of Object.entries(js.properties ?? {})) {
        if (js.required?.includes(field)) bodyCases.push([field, undefined, `${field} is required`]);
        if (prop.type === 'integer' || prop.type === 'number') bodyCases.push([field, 'abc', `${field} must be ${prop.type === 'integer' ? 'an integer' : 'a number'}`]);
        else if (prop.enum) bodyCases.push([field, 'not-a-choice', `${field} must be one of`]);
        else if (prop.type === 'string') bodyCases.push([field, 5, `${field} must be`]);
        // A string of the wrong form (`"repository_url": "str"`): a refinement after the format check must not see it.
        // (URL fields that take a bare host name, `example.com`, accept "str" as one.)
        const wrongForm = prop.type === 'string' && (prop.format || prop.pattern) && !accepts(route.body as z.ZodType, { ...example, [field]: 'str' });
        if (wrongForm) bodyCases.push([field, 'str', `${field} must`]);
      }
      for (const [field, value, said] of bodyCases) {
        count++;
        const body = { ...example, [field]: value };
        if (value === undefined) delete body[field];
        const res = await svc.call(route.path.replace(/:(\w+)/g, 'x'), { method: route.method.toUpperCase(), json: body, headers: { 'X-API-Key': key } });
        const error = typeof res.body?.error === 'string' ? res.body.error : '';
        const got = value === undefined || error.includes(`got ${JSON.stringify(value)}`);
        if (res.status !== 400 || !error.includes(said) || !got) failures.push(`${route.path} ${field}=${JSON.stringify(value)}: ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
    expect(count).to.be.greaterThan(10);
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });
});

/** Whether the schema takes `value`; a schema that throws on it (a bug the table is there to find) does not. */
function accepts(schema: z.ZodType, value: unknown): boolean {
  try {
    return schema.safeParse(value).success;
  } catch {
    return false;
  }
}
