/**
 * One Wappalyzer-format pattern: `regex\;version:\1\;confidence:50` (the webappanalyzer
 * README, "Patterns" and "Tags"). An empty regex matches any value: the header, cookie,
 * global or element is there.
 */
export interface Pattern {
  regex: RegExp;
  /** Version template with back references and a ternary (`\1`, `\1?a:b`). */
  version?: string;
  /** @default 100 */
  confidence: number;
  /** The regex as written in the data (for implies/excludes/requires: the technology name). */
  source: string;
}

/** The text before the first `\;` and the `key:value` tags after it. */
export function splitTags(text: string): { expr: string; version?: string; confidence: number } {
  const [expr, ...tags] = String(text).split('\\;');
  let version: string | undefined;
  let confidence = 100;
  for (const tag of tags) {
    const i = tag.indexOf(':');
    if (i < 0) continue;
    const key = tag.slice(0, i);
    const value = tag.slice(i + 1);
    if (key === 'version') version = value;
    else if (key === 'confidence') {
      // As the engine's parseInt(confidence || 100): an empty tag is the default.
      const n = Number.parseInt(value, 10);
      confidence = Number.isNaN(n) ? 100 : n;
    }
  }
  return { expr, version: version || undefined, confidence };
}

/** Parses a pattern; null when its regex does not compile in JavaScript (PCRE-only syntax in the data). */
export function parsePattern(text: string): Pattern | null {
  const { expr, version, confidence } = splitTags(text);
  let regex: RegExp;
  try {
    regex = new RegExp(boundQuantifiers(expr), 'i');
  } catch {
    return null;
  }
  return { regex, version, confidence, source: expr };
}

/**
 * `+` and `*` become `{1,250}` and `{0,250}`, as the engine does ("optimise quantifiers
 * for long strings"): the data is written against that bound, and it keeps backtracking
 * on a multi-megabyte page in check. The engine does it with a plain text replace, which
 * also rewrites `\*` and `+`/`*` inside character classes (`[+*]` then matches `{`, `2`,
 * `5`…); here only real quantifiers are touched.
 *
 * Slashes are left alone. The engine rewrites every `/` to `\/`, so a `\/` written in the
 * data becomes `\\/` there (a literal backslash) and that pattern never matches; in a
 * JavaScript RegExp built from a string `\/` is simply `/`.
 */
function boundQuantifiers(expr: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < expr.length; i++) {
    const c = expr[i];
    if (c === '\\') {
      out += c + (expr[i + 1] ?? '');
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else if (c === '+') out += '{1,250}';
    else if (c === '*') out += '{0,250}';
    else out += c;
  }
  return out;
}

/** The result of testing one pattern: null (no match), else what matched and the version it names ('' for none). */
export function matchPattern(pattern: Pattern, value: string): { matched: string; version: string } | null {
  const m = pattern.regex.exec(value);
  if (!m) return null;
  return { matched: m[0], version: pattern.version ? resolveVersion(pattern.version, m) : '' };
}

/**
 * Fills a version template from the match groups, as the README's "Version syntax" says:
 * `\1` is the first group, `\1?a:b` is `a` when the group holds a value and `b` otherwise
 * (either branch may be empty: the engine's ternary needs a non-empty first branch and
 * turns the README's own `\1?:b` into `?:b`). A group that did not match, or that the
 * regex does not have, gives '' — never the placeholder itself.
 *
 * The engine skips every group longer than ten characters (and then strips its `\1`), so
 * a capture like `2.0.0-beta.12` gives it no version; here any capture is used, and the
 * length limit of the version as a whole is applied where versions are chosen.
 */
export function resolveVersion(template: string, match: RegExpExecArray): string {
  const group = (n: string) => match[Number(n)] ?? '';
  return template
    .replace(/\\(\d)\?([^:]*):(.*)$/, (_all, n: string, yes: string, no: string) => (group(n) ? yes : no))
    .replace(/\\(\d)/g, (_all, n: string) => group(n))
    .trim();
}
