import { expect } from 'chai';
import { z } from 'zod';
import { allRoutes } from '../../server/api/routes/index.js';
import type { AnyRoute } from '../../server/api/route.js';
import { startTestService, type TestService } from '../support/service.js';

interface Case { route: AnyRoute; param: string; value: string | undefined; why: string }
type PropSchema = { type?: string; minimum?: number; maximum?: number; enum?: unknown[]; format?: string };

/**
 * The bad-input table, derived from every route's own query schema so a new endpoint is
 * covered the day it lands: each required parameter missing, each bounded integer out of
 * range and not a number, each enum given a value outside it → 400 JSON naming the parameter.
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
      const ok = res.status === 400 && typeof res.body?.error === 'string' && res.body.error.includes(c.param);
      if (!ok) failures.push(`${c.route.path} ${c.param} ${c.why}: ${res.status} ${res.text.slice(0, 200)}`);
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });
});
