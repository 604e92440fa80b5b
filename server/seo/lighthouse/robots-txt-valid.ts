import { notApplicable, type Outcome } from '../check-result.js';
import { validateRobotsTxt, type RobotsTxt } from '../robots-txt.js';

/**
 * Lighthouse's robots-txt: a 5xx answer fails (crawlers stop crawling then), a 4xx or an
 * empty file is not applicable (crawlers may crawl everything), a failed fetch fails, and
 * a served file fails on every line its validation rejects.
 */
export function robotsTxtValid(robots: RobotsTxt, sitemaps: string[]): Outcome {
  const { status, content } = robots;
  const value = { status, sitemaps, errors: 0 };
  if (status !== null && status >= 500) {
    return {
      pass: false,
      value,
      items: [{ reason: `Request for robots.txt returned HTTP status: ${status}`, url: robots.url }],
      message: `Request for robots.txt returned HTTP status: ${status}`,
      recommendation: `Make ${robots.url} answer 200 (or 404 when there are no rules): crawlers back off while it answers ${status}.`,
    };
  }
  if ((status !== null && status >= 400) || content === '') {
    return notApplicable(value, status !== null && status >= 400 ? `no robots.txt (HTTP ${status}); crawlers may crawl everything` : 'robots.txt is empty');
  }
  if (status === null || content === null) {
    const why = status === null ? `Fetch of robots.txt failed${robots.error ? `: ${robots.error}` : ''}` : `Request for robots.txt returned HTTP status: ${status}`;
    return { pass: false, value, message: why, items: [{ reason: why, url: robots.url }], recommendation: `Make ${robots.url} reachable (200 with rules, or 404 when there are none).` };
  }
  const errors = validateRobotsTxt(content);
  const count = `${errors.length} error${errors.length === 1 ? '' : 's'} found`;
  return {
    pass: errors.length === 0,
    value: { ...value, errors: errors.length },
    message: errors.length ? `robots.txt is not valid: ${count}` : 'robots.txt is valid',
    recommendation: `Fix the robots.txt lines ${errors.map((e) => e.line).join(', ')}: crawlers may not understand how the site wants to be crawled.`,
    items: errors.map((e) => ({ reason: e.message, robots_txt: { line: e.line, content: e.content }, url: robots.url })),
  };
}
