import { RE2JS } from 're2js';

/** A compiled `exclude` pattern. */
export interface UrlPattern {
  /** True when the pattern matches anywhere in `url`. */
  test(url: string): boolean;
}

/**
 * Compiles an `exclude` pattern with RE2 (re2js, a pure-JavaScript port): RE2 syntax, the
 * dialect of lychee's `--exclude`, matched in time linear in the URL's length whatever the
 * pattern, so a caller's `(a+)+$` cannot stall the process on a long URL the way a
 * backtracking RegExp would. What needs backtracking (backreferences, lookaround) is not in
 * the syntax. Throws a SyntaxError saying what is wrong.
 */
export function compileUrlPattern(source: string): UrlPattern {
  try {
    return RE2JS.compile(source);
  } catch (err) {
    const reason = (err as Error).message.replace(/^error parsing regexp: /, '');
    const hint = /\(\?[=!<]|\\[1-9]/.test(source) ? ' (RE2 syntax: no lookahead, lookbehind or backreferences)' : '';
    throw new SyntaxError(`${reason}${hint}`);
  }
}
