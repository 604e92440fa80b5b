import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';
import { startFixtureSite } from './support/fixture-site.js';
import { caseRoutes, expected, label, normalise, reported, writeCaseFingerprints } from './support/techstack-cases.js';
import { ruleTables } from './techstack-cases/index.js';

/*
 * Each case runs through the real service: its fingerprint set is written to a temporary
 * `FINGERPRINTS_DIR` that service loads, the site is a loopback server, and
 * `GET /api/techstack` is called without and with `render=true`.
 */
for (const table of ruleTables) {
  describe(`GET /api/techstack, ${table.unit}`, function () {
    for (const c of table.cases) {
      describe(c.title, function () {
        let svc: TestService;
        let site: Awaited<ReturnType<typeof startFixtureSite>>;
        let dir: string;
        let key: string;

        before(async function () {
          dir = await writeCaseFingerprints(c);
          site = await startFixtureSite(caseRoutes(c));
          svc = await startTestService({ FINGERPRINTS_DIR: dir });
          key = await svc.newKey('business');
        });

        after(async function () {
          await svc?.close();
          await site?.close();
          if (dir) await rm(dir, { recursive: true, force: true });
        });

        for (const mode of ['fetch', 'render'] as const) {
          const want = expected(c, mode);
          it(`${mode === 'fetch' ? 'fetched' : 'rendered'}, reports ${want.length ? want.map(label).join(', ') : 'nothing'}`, async function () {
            const url = site.url + (c.path ?? '/');

            const r = await svc.call(`/api/techstack?url=${encodeURIComponent(url)}${mode === 'render' ? '&render=true' : ''}`, {
              headers: { 'X-API-Key': key },
            });

            expect(r.status, r.text).to.equal(200);
            expect(reported(r.body.technologies)).to.deep.equal(normalise(want));
            expect(r.body.technology_count).to.equal(want.length);
          });
        }
      });
    }
  });
}
