import * as core from '@actions/core';

export interface Annotation {
  level: 'error' | 'warning';
  message: string;
  title?: string;
  file?: string;
  line?: number;
  column?: number;
}

/**
 * GitHub shows at most 10 annotations of a kind per step; more only clutter the log. Emits
 * up to `opts.cap` and one notice counting the rest. Returns how many were emitted.
 */
export function emitAnnotations(items: Annotation[], opts: { cap: number; what: string }): number {
  const shown = items.slice(0, opts.cap);
  for (const a of shown) {
    const props = { title: a.title, file: a.file, startLine: a.line, startColumn: a.line !== undefined ? a.column : undefined };
    if (a.level === 'error') core.error(a.message, props);
    else core.warning(a.message, props);
  }
  const rest = items.length - shown.length;
  if (rest > 0) core.notice(`${rest} more ${opts.what} not annotated; the job summary lists all of them.`);
  return shown.length;
}
