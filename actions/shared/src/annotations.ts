import * as core from '@actions/core';

export interface Annotation {
  message: string;
  title?: string;
  file?: string;
  line?: number;
}

/**
 * GitHub shows at most 10 error annotations per step; more only clutter the log. Emits up
 * to `opts.cap` and one notice counting the rest. Returns how many were emitted.
 */
export function emitAnnotations(items: Annotation[], opts: { cap: number; what: string }): number {
  const shown = items.slice(0, opts.cap);
  for (const a of shown) core.error(a.message, { title: a.title, file: a.file, startLine: a.line });
  const rest = items.length - shown.length;
  if (rest > 0) core.notice(`${rest} more ${opts.what} not annotated; the job summary lists all of them.`);
  return shown.length;
}
