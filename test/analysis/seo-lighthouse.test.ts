import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';
import type { Names, SeoCase, Verdict } from './seo-cases/case.js';
import { seoCaseTables as tables } from './seo-cases/index.js';
import { serveCase } from './seo-cases/serve-case.js';

const modes = ['fetch', 'render'] as const;
type Mode = (typeof modes)[number];

interface Item {
  reason: string;
  element?: { selector: string; snippet: string };
  robots_txt?: { line: number; content: string };
  header?: string;
  url?: string;
  text?: string;
}
interface Check {
  pass: boolean;
  applicable: boolean;
  source: string;
  lighthouse_audit: string | null;
  items: Item[];
  warnings: string[];
}
interface Outcome {
  check: Check;
  origin: string;
}

const verdictOf = (c: Check): Verdict => (!c.applicable ? 'na' : c.pass ? 'pass' : 'fail');

const matches = (item: Item, names: Names, fill: (s: string) => string) =>
  Object.entries(names).every(([key, want]) => {
    const expected = typeof want === 'string' ? fill(want) : want;
    switch (key) {
      case 'reason':
        return item.reason.includes(String(expected));
      case 'selector':
      case 'snippet':
        return item.element?.[key] === expected;
      case 'line':
      case 'content':
        return item.robots_txt?.[key] === expected;
      default:
        return item[key as 'header' | 'url' | 'text'] === expected;
    }
  });

/** Runs `work` over `list` with at most `n` at a time. */
async function pool<T>(list: T[], n: number, work: (x: T) => Promise<void>) {
  const queue = [...list];
  await Promise.all(Array.from({ length: n }, async () => {
    for (let x = queue.shift(); x !== undefined; x = queue.shift()) await work(x);
  }));
}

describe('GET /api/seo, on pages built from the rules of the Lighthouse audits it shares', function () {
  this.timeout(600_000);
  let svc: TestService;
  const results = new Map<SeoCase, Record<Mode, Outcome>>();
  const all = Object.values(tables).flat();

  before(async function () {
    svc = await startTestService();
    // A business key allows 60 calls a minute: one key per 50 calls.
    const keys = await Promise.all(Array.from({ length: Math.ceil((all.length * modes.length) / 50) }, () => svc.newKey('business')));
    let calls = 0;
    const audit = async (url: string, mode: Mode): Promise<Record<string, Check>> => {
      const key = keys[Math.floor(calls++ / 50)];
      const r = await svc.call(`/api/seo?url=${encodeURIComponent(url)}${mode === 'render' ? '&render=true' : ''}`, { headers: { 'X-API-Key': key } });
      if (r.status !== 200) throw new Error(`${url} (${mode}) answered ${r.status}: ${r.text}`);
      return r.body.checks;
    };
    await pool(all, 4, async (c) => {
      const { site, url } = await serveCase(c);
      try {
        const [fetched, rendered] = await Promise.all(modes.map((m) => audit(url, m)));
        results.set(c, { fetch: { check: fetched[c.check], origin: site.url }, render: { check: rendered[c.check], origin: site.url } });
      } finally {
        await site.close();
      }
    });
  });

  after(async function () {
    await svc?.close();
  });

  for (const [audit, cases] of Object.entries(tables)) {
    describe(audit, function () {
      for (const c of cases) {
        for (const mode of modes) {
          const verdict = mode === 'fetch' ? (c.fetchExpect ?? c.expect) : c.expect;
          const note = verdict === c.expect ? '' : ` (Lighthouse: ${c.expect}; the served HTML has no script effects)`;
          it(`${c.name}: ${verdict} (${mode} mode)${note}`, function () {
            const { check, origin } = results.get(c)?.[mode] ?? expect.fail('the case did not run');
            const fill = (s: string) => s.replaceAll('{origin}', origin);

            expect(check.source).to.equal('lighthouse');
            expect(check.lighthouse_audit).to.equal(audit);
            expect(verdictOf(check), JSON.stringify(check)).to.equal(verdict);
            if (verdict === 'fail') {
              expect(check.items, 'a failing check names what fails').to.not.be.empty;
              for (const item of check.items) expect(item.element ?? item.robots_txt ?? item.header ?? item.url).to.be.ok;
              if (c.names) expect(check.items.some((i) => matches(i, c.names ?? {}, fill)), JSON.stringify(check.items)).to.equal(true);
            }
            if (c.warns) expect(check.warnings.join(' ')).to.include(c.warns);
          });
        }
      }
    });
  }
});
