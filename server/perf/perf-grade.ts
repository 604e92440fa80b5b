export const perfGrades = ['A+', 'A', 'B', 'C', 'F'] as const;
export type PerfGrade = (typeof perfGrades)[number];

export interface PerfGradeInput {
  status: number;
  /** Total time including redirects, ms. */
  responseTimeMs: number;
  redirects: number;
  contentType: string;
  contentEncoding: string;
  decodedBytes: number;
  /** Reading stopped at the service's size limit: the body is larger than `decodedBytes`. */
  truncated: boolean;
  headers: Record<string, string>;
}

/** The rubric, shown in the OpenAPI description. */
export const perfRubric = [
  'Score starts at 100. Speed (total time including redirects): up to 300 ms no loss; up to 800 ms -10; up to 1500 ms -20; up to 3000 ms -30; slower -40.',
  'Compression: a text response (HTML, CSS, JS, JSON, XML, SVG) of 1 KB or more sent without gzip/br/zstd -20.',
  'Caching: neither Cache-Control nor Expires -15; Cache-Control no-store -5; no ETag or Last-Modified validator -5.',
  'Size (decoded body): over 500 KB -5; over 1 MB -15; over 3 MB -25.',
  'Redirects: -5 per hop, at most -10.',
  'Grade: A+ 95 and up, A 85, B 70, C 50, F below; a 4xx status caps the grade at C, a 5xx status gives F.',
].join(' ');

const TEXT = /^(text\/|application\/(json|javascript|ecmascript|xml|xhtml\+xml|ld\+json|manifest\+json|rss\+xml|atom\+xml)|image\/svg\+xml)/i;

export function gradePerf(i: PerfGradeInput): { grade: PerfGrade; score: number; issues: string[] } {
  let score = 100;
  const issues: string[] = [];
  const lose = (points: number, why: string) => {
    score -= points;
    issues.push(`${why} (-${points})`);
  };
  const ms = Math.round(i.responseTimeMs);
  if (ms > 3000) lose(40, `very slow: ${ms} ms in total; aim for under 300 ms (cache the page, use a CDN, cut server work)`);
  else if (ms > 1500) lose(30, `slow: ${ms} ms in total; aim for under 300 ms`);
  else if (ms > 800) lose(20, `slow: ${ms} ms in total; aim for under 300 ms`);
  else if (ms > 300) lose(10, `${ms} ms in total; under 300 ms earns full marks`);

  // A body cut at the limit is larger than what was read, and the issues say so.
  const size = i.truncated ? `more than ${formatBytes(i.decodedBytes)} (reading stopped at this service's limit)` : formatBytes(i.decodedBytes);
  const type = i.contentType.split(';')[0].trim() || 'the response';
  const compressed = /\b(gzip|br|zstd|deflate|compress)\b/i.test(i.contentEncoding);
  if (!compressed && TEXT.test(i.contentType) && i.decodedBytes >= 1024) {
    lose(20, `no compression: enable gzip or br for ${type} (${size} sent uncompressed)`);
  }

  const cc = (i.headers['cache-control'] ?? '').toLowerCase();
  if (!cc && !i.headers.expires) lose(15, 'no caching headers: add Cache-Control (e.g. "max-age=300" for pages, "max-age=31536000, immutable" for fingerprinted assets)');
  else if (/\bno-store\b/.test(cc)) lose(5, 'Cache-Control: no-store disables every cache; use "no-cache" with an ETag when the page must be revalidated');
  if (!i.headers.etag && !i.headers['last-modified']) lose(5, 'no ETag or Last-Modified: add one so repeat visits can get a 304');

  // A body cut at a size is larger than it.
  const over = (n: number) => i.decodedBytes > n || (i.truncated && i.decodedBytes >= n);
  if (over(3 * 1024 * 1024)) lose(25, `very large response: ${size}; keep pages under 500 KB`);
  else if (over(1024 * 1024)) lose(15, `large response: ${size}; keep pages under 500 KB`);
  else if (over(500 * 1024)) lose(5, `response of ${size}; keep pages under 500 KB`);

  if (i.redirects > 0) lose(Math.min(10, 5 * i.redirects), `${i.redirects} redirect(s) before the final page: link to the final URL directly`);

  score = Math.max(0, score);
  let grade: PerfGrade = score >= 95 ? 'A+' : score >= 85 ? 'A' : score >= 70 ? 'B' : score >= 50 ? 'C' : 'F';
  if (i.status >= 500) {
    grade = 'F';
    issues.push(`server error: HTTP ${i.status} (grade F)`);
  } else if (i.status >= 400 && grade !== 'F') {
    if (['A+', 'A', 'B'].includes(grade)) grade = 'C';
    issues.push(`client error: HTTP ${i.status} (grade capped at C)`);
  }
  return { grade, score, issues };
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${n} B`;
}
