import { expect } from 'chai';
import { gradePerf, type PerfGradeInput } from '../../server/perf/perf-grade.js';
import { gradeTls, type TlsGradeInput } from '../../server/tls/tls-grade.js';

/**
 * The grading rubrics on fixed inputs: each rule at its boundaries, with no clock or
 * network in the way (the endpoint tests in perf.test.ts and ssl.test.ts drive real servers,
 * where timing can move a score across a boundary).
 */
describe('gradePerf, the performance rubric', () => {
  /** A page that loses nothing: fast, compressed, cacheable, small, no redirect. */
  const best: PerfGradeInput = {
    status: 200,
    responseTimeMs: 120,
    redirects: 0,
    contentType: 'text/html; charset=utf-8',
    contentEncoding: 'br',
    decodedBytes: 40_000,
    truncated: false,
    headers: { 'cache-control': 'max-age=300', etag: '"x"' },
  };
  const grade = (change: Partial<PerfGradeInput>) => gradePerf({ ...best, ...change });

  it('gives A+ with 100 and no issue to a fast, compressed, cacheable, small page', () => {
    expect(grade({})).to.deep.equal({ grade: 'A+', score: 100, issues: [] });
  });

  for (const [ms, score] of [[300, 100], [301, 90], [800, 90], [801, 80], [1500, 80], [1501, 70], [3000, 70], [3001, 60]] as const) {
    it(`scores ${score} for a response of ${ms} ms in total`, () => expect(grade({ responseTimeMs: ms }).score).to.equal(score));
  }

  it('takes 20 for uncompressed text of 1 KB or more, not for smaller text or for images', () => {
    expect(grade({ contentEncoding: '', decodedBytes: 1024 }).score).to.equal(80);
    expect(grade({ contentEncoding: '', decodedBytes: 1023 }).score).to.equal(100);
    expect(grade({ contentEncoding: '', contentType: 'image/png' }).score).to.equal(100);
    expect(grade({ contentEncoding: '', contentType: 'image/svg+xml' }).score).to.equal(80);
  });

  it('takes 15 without Cache-Control or Expires, 5 for no-store, 5 without a validator', () => {
    expect(grade({ headers: { etag: '"x"' } }).score).to.equal(85);
    expect(grade({ headers: { expires: 'Thu, 01 Jan 2099 00:00:00 GMT', etag: '"x"' } }).score).to.equal(100);
    expect(grade({ headers: { 'cache-control': 'no-store', etag: '"x"' } }).score).to.equal(95);
    expect(grade({ headers: { 'cache-control': 'max-age=300' } }).score).to.equal(95);
  });

  it('takes 5, 15 and 25 past 500 KB, 1 MB and 3 MB', () => {
    expect(grade({ decodedBytes: 500 * 1024 }).score).to.equal(100);
    expect(grade({ decodedBytes: 500 * 1024 + 1 }).score).to.equal(95);
    expect(grade({ decodedBytes: 1024 * 1024 + 1 }).score).to.equal(85);
    expect(grade({ decodedBytes: 3 * 1024 * 1024 + 1 }).score).to.equal(75);
  });

  it('takes 5 a redirect, at most 10', () => {
    expect(grade({ redirects: 1 }).score).to.equal(95);
    expect(grade({ redirects: 2 }).score).to.equal(90);
    expect(grade({ redirects: 5 }).score).to.equal(90);
  });

  it('grades by score: A+ from 95, A from 85, B from 70, C from 50, F below', () => {
    expect(grade({ redirects: 1 }).grade).to.equal('A+'); // 95
    expect(grade({ responseTimeMs: 400, redirects: 1 }).grade).to.equal('A'); // 85
    expect(grade({ responseTimeMs: 400, redirects: 2, decodedBytes: 1024 * 1024 + 1 }).grade).to.equal('C'); // 65
    expect(grade({ responseTimeMs: 900, headers: { 'cache-control': 'max-age=1' }, redirects: 1 }).grade).to.equal('B'); // 70
    expect(grade({ responseTimeMs: 4000, contentEncoding: '', headers: {}, decodedBytes: 4 * 1024 * 1024 }).grade).to.equal('F'); // 0
  });

  it('caps a 4xx at C and gives a 5xx F, whatever the score', () => {
    const notFound = grade({ status: 404 });
    expect(notFound).to.include({ grade: 'C', score: 100 });
    expect(notFound.issues).to.deep.equal(['client error: HTTP 404 (grade capped at C)']);
    expect(grade({ status: 503 }).grade).to.equal('F');
  });
});

describe('gradeTls, the TLS rubric', () => {
  const best: TlsGradeInput = {
    protocol: 'TLSv1.3',
    cipherName: 'TLS_AES_256_GCM_SHA384',
    daysRemaining: 90,
    notYetValid: false,
    chainTrusted: true,
    selfSigned: false,
    hostnameMatches: true,
    keyType: 'ec',
    keyBits: 256,
    signatureAlgorithm: 'ecdsa-with-SHA256',
  };
  const grade = (change: Partial<TlsGradeInput>) => gradeTls({ ...best, ...change });

  it('gives A+ with no issue to TLS 1.3 with a 256-bit cipher and a sound certificate', () => {
    expect(grade({})).to.deep.equal({ grade: 'A+', gradeBeforeCaps: 'A+', issues: [] });
  });

  for (const [protocol, cipherName, base] of [
    ['TLSv1.3', 'TLS_AES_128_GCM_SHA256', 'A'],
    ['TLSv1.2', 'ECDHE-RSA-AES256-GCM-SHA384', 'A'],
    ['TLSv1.2', 'ECDHE-RSA-AES128-SHA', 'B'],
    ['TLSv1.2', 'AES256-GCM-SHA384', 'B'],
    ['TLSv1.2', 'DES-CBC3-SHA', 'C'],
    ['TLSv1.1', 'ECDHE-RSA-AES128-SHA', 'C'],
    ['TLSv1', 'ECDHE-RSA-AES128-SHA', 'C'],
    ['SSLv3', 'RC4-SHA', 'F'],
  ] as const) {
    it(`grades ${protocol} with ${cipherName} ${base} before caps`, () => {
      const r = grade({ protocol, cipherName });
      expect(r.gradeBeforeCaps).to.equal(base);
      expect(r.grade).to.equal(base);
    });
  }

  for (const [what, change, capped] of [
    ['an expired certificate', { daysRemaining: -1 }, 'F'],
    ['a certificate not yet valid', { notYetValid: true }, 'F'],
    ['6 days left', { daysRemaining: 6 }, 'B'],
    ['7 days left', { daysRemaining: 7 }, 'A'],
    ['29 days left', { daysRemaining: 29 }, 'A'],
    ['30 days left', { daysRemaining: 30 }, 'A+'],
    ['a self-signed certificate', { selfSigned: true }, 'C'],
    ['an untrusted chain', { chainTrusted: false }, 'C'],
    ['a host name mismatch', { hostnameMatches: false }, 'C'],
    ['a 1024-bit RSA key', { keyType: 'rsa', keyBits: 1024 }, 'B'],
    ['a 2048-bit RSA key', { keyType: 'rsa', keyBits: 2048 }, 'A+'],
    ['a SHA-1 signature', { signatureAlgorithm: 'sha1WithRSAEncryption' }, 'C'],
  ] as const) {
    it(`caps A+ at ${capped} for ${what}`, () => {
      const r = grade(change);
      expect(r.grade).to.equal(capped);
      expect(r.gradeBeforeCaps).to.equal('A+');
    });
  }

  it('applies the lowest of several caps and names each', () => {
    const r = grade({ daysRemaining: 3, selfSigned: true });
    expect(r.grade).to.equal('C');
    expect(r.issues).to.have.length(2);
    expect(r.issues[0]).to.match(/expires in 3 day\(s\).*capped at B/);
    expect(r.issues[1]).to.match(/self-signed.*capped at C/);
  });
});
