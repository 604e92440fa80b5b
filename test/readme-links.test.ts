import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { startTestService, type TestService } from './support/service.js';

/**
 * The project's own Markdown, checked by the product as a repository would check it: every
 * relative link must name a file of this checkout and every `#fragment` a heading GitHub
 * would make, in documents mode with `offline` (no network) and `fragments: error`.
 */
describe('the project\'s Markdown, checked by its own documents mode', function () {
  this.timeout(60_000);
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(async () => svc?.close());

  it('POST /api/deadlinks/documents of every tracked .md file (offline, fragments: error): no broken link, no missing heading', async () => {
    const paths = execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n').filter(Boolean);
    const documents = paths.filter((p) => p.endsWith('.md') && fs.existsSync(p)).map((p) => ({ path: p, content: fs.readFileSync(p, 'utf8') }));
    expect(documents.map((d) => d.path)).to.include.members(['README.md', 'bench/README.md', 'AGENTS.md']);
    const r = await svc.call('/api/deadlinks/documents', {
      method: 'POST',
      headers: { 'x-api-key': await svc.newKey('business') },
      json: { documents, paths, offline: true, fragments: 'error' },
    });
    expect(r.status, r.text).to.equal(200);
    const found = [...r.body.broken_links, ...r.body.warnings].map((l: { kind: string; url: string; file?: string; line?: number }) => `${l.file}:${l.line} ${l.kind} ${l.url}`);
    expect(found).to.deep.equal([]);
    expect(r.body.total_links_checked, 'the README links its own sections').to.be.greaterThan(20);
  });
});
