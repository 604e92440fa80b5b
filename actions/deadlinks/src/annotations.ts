import type { Annotation } from '../../shared/src/annotations.js';
import { failure, type DeadlinkReport } from './report.js';

/**
 * One annotation per broken link and line in GitHub mode (on the file, so it shows in the
 * PR's diff view); one per broken link otherwise, naming the pages it is on.
 */
export function brokenLinkAnnotations(report: DeadlinkReport): Annotation[] {
  return report.broken_links.flatMap((item): Annotation[] => {
    const what = `Broken link ${item.url} (${failure(item)})`;
    if (item.file) {
      const lines = item.lines?.length ? item.lines : item.line ? [item.line] : [undefined];
      return lines.map((line) => ({ title: 'Broken link', message: what, file: item.file, line }));
    }
    const pages = item.found_on.slice(0, 3).join(', ') + (item.found_on.length > 3 ? ` and ${item.found_on.length - 3} more` : '');
    return [{ title: 'Broken link', message: `${what} on ${pages}` }];
  });
}
