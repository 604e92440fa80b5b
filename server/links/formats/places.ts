/** A file position a link was found at. */
export interface Place {
  file: string;
  line?: number;
  column?: number;
}

/**
 * Every file place of an item (one per occurrence), or a single `null` for a link found on
 * pages. The one reading of `locations` (and of `file`/`line` for a report without them) for
 * every format, the PR comment and the action's annotations.
 */
export function placesOf<P extends Place>(item: { locations?: P[]; file?: string; line?: number; column?: number }): Array<P | Place | null> {
  if (item.locations?.length) return item.locations;
  if (item.file !== undefined && item.line !== undefined) return [{ file: item.file, line: item.line, column: item.column }];
  return [null];
}
