import type { LinkItem, LinkLocation } from '../report.js';

/** Every file place of an item (one per occurrence), or a single `null` for a link found on pages. */
export function placesOf(item: LinkItem): Array<LinkLocation | null> {
  if (item.locations?.length) return item.locations;
  if (item.file !== undefined && item.line !== undefined) return [{ file: item.file, line: item.line, column: item.column }];
  return [null];
}
