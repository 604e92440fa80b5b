import { expect } from 'chai';
import { keylessLimits } from '../../server/api/limit-rules.js';
import { allRoutes } from '../../server/api/routes/index.js';
import { startTestService, type TestService } from '../support/service.js';

/** The contract's "Limits" table, column "No key", per client IP: [API path, calls, seconds]. */
const contractNoKey: Record<string, [number, number]> = {
  '/api/deadlinks': [1, 30 * 60],
  '/api/seo': [1, 5 * 60],
  '/api/screenshot': [2, 60],
  '/api/perf': [2, 60],
  '/api/techstack': [1, 2 * 60],
  '/api/html2image': [2, 60],
  '/api/ssl': [5, 60],
  '/api/audit': [1, 2 * 60],
};

describe('keyless limits, as the contract tables them', () => {
  let svc: TestService;
  before(async () => (svc = await startTestService()));
  after(async () => svc.close());

  for (const [path, [points, seconds]] of Object.entries(contractNoKey)) {
    it(`${path} without a key: ${points} per ${seconds / 60} min per IP, then 429 with Retry-After`, async () => {
      const route = allRoutes(svc.deps).find((r) => r.path === path);
      expect(route?.key, `${path} works without a key`).to.equal('optional');
      expect(keylessLimits[route!.limit!]).to.deep.equal({ points, seconds });

      const ip = `198.51.100.${Object.keys(contractNoKey).indexOf(path) + 1}`;
      for (let i = 0; i < points; i++) expect(await svc.deps.limiter.consumeByIp(route!.limit!, ip)).to.include({ remaining: points - i - 1 });
      const refused = await svc.deps.limiter.consumeByIp(route!.limit!, ip).then(() => null, (e: { status: number; headers: Record<string, string> }) => e);
      expect(refused?.status).to.equal(429);
      expect(Number(refused?.headers['Retry-After'])).to.be.within(seconds - 5, seconds);
    });
  }
});
