import type { Annotation } from '../../shared/src/annotations.js';
import { failure, fixLabels } from '../../../server/report-markdown/dead-links.js';
import { placesOf } from '../../../server/links/formats/places.js';
import type { DeadLinkReport, LinkItem } from '../../../server/links/report.js';

/**
 * One annotation per place of each broken link and warning: on its file, line and column
 * (so it shows on that line of the pull request's diff), or naming the pages it is on.
 * Broken links are errors while the check fails and warnings when its gate holds, so a
 * passing check raises no alarm.
 */
export function linkAnnotations(report: DeadLinkReport, failing: boolean): Annotation[] {
  const broken = report.broken_links.flatMap((item) => annotate(item, failing ? 'error' : 'warning', 'Broken link'));
  const warnings = report.warnings.flatMap((item) => annotate(item, 'warning', 'Link warning'));
  return [...broken, ...warnings];
}

function annotate(item: LinkItem, level: Annotation['level'], title: string): Annotation[] {
  // A known fix (suggest_fixes) shows on the line too, where the author reads the annotation.
  const fix = item.suggestion ? `; fix: ${item.suggestion.url} (${fixLabels[item.suggestion.reason] ?? item.suggestion.reason})` : '';
  const message = `${title}: ${item.url} (${failure(item)})${fix}`;
  const places = placesOf(item).filter((p) => p !== null);
  if (places.length) return places.map((p) => ({ level, title, message, file: p.file, line: p.line, column: p.column }));
  const pages = item.found_on.slice(0, 3).join(', ') + (item.found_on.length > 3 ? ` and ${item.found_on.length - 3} more` : '');
  return [{ level, title, message: pages ? `${message} on ${pages}` : message }];
}
