import zlib from 'node:zlib';
import { expect } from 'chai';
import { createTargetPolicy } from '../../server/net/target-policy.js';
import { measurePerf } from '../../server/perf/perf-check.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

describe('measurePerf, the page body it keeps for comparisons', () => {
  let server: FixtureServer;
  // 20 MB of HTML that travels as about 20 KB of gzip.
  const bomb = zlib.gzipSync(Buffer.alloc(20 * 1024 * 1024, '<p>x</p>'));
  before(async () => {
    server = await startFixtureServer((req, res) => {
      if (req.url === '/bomb') return void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(bomb);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<script src="/a.js"></script><img src="/b.png">');
    });
  });
  after(() => server.close());

  const policy = createTargetPolicy('true');

  it('is the decoded page, as measured', async () => {
    const { report, body } = await measurePerf({ url: `${server.url}/` }, { policy });
    expect(body.toString()).to.equal('<script src="/a.js"></script><img src="/b.png">');
    expect(report.response_size_bytes).to.equal(body.length);
  });

  it('stops at maxBytes however far a small compressed body decodes', async () => {
    const { report, body } = await measurePerf({ url: `${server.url}/bomb`, maxBytes: 1024 * 1024 }, { policy });
    expect(body.length).to.equal(1024 * 1024);
    expect(report.response_size_bytes, 'the decoded size is still measured whole').to.equal(20 * 1024 * 1024);
  });
});
