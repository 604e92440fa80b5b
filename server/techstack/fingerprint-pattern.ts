/**
 * One Wappalyzer-format pattern: `regex\;version:\1\;confidence:50`.
 * An empty regex matches any value (presence of the header, cookie, global…).
 */
export interface Pattern {
  regex: RegExp;
  /** Version template with back references and ternaries (`\1`, `\1?a:b`). */
  version?: string;
  /** @default 100 */
  confidence: number;
  source: string;
}

const MATCH_ALL = /(?:)/;

/** Parses a pattern string; null when its regex does not compile in JavaScript. */
export function parsePattern(text: string): Pattern | null {
  const [expr, ...attrs] = String(text).split('\\;');
  let version: string | undefined;
  let confidence = 100;
  for (const attr of attrs) {
    const i = attr.indexOf(':');
    if (i < 0) continue;
    const key = attr.slice(0, i);
    const value = attr.slice(i + 1);
    if (key === 'version') version = value;
    else if (key === 'confidence') confidence = Number(value) || 0;
  }
  let regex = MATCH_ALL;
  if (expr) {
    try {
      // Wappalyzer escapes `/` for its own parser; JavaScript does not need it.
      regex = new RegExp(expr.replace(/\\\//g, '/'), 'i');
    } catch {
      return null; // PCRE-only syntax in the data: the pattern cannot run here
    }
  }
  return { regex, version, confidence, source: expr };
}

/** Patterns from a string or list of strings (the data uses both). */
export function parsePatterns(value: unknown): Pattern[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return list.map((v) => parsePattern(String(v))).filter((p): p is Pattern => p !== null);
}

/** The result of testing one pattern: null (no match) or the version it captured. */
export function testPattern(pattern: Pattern, value: string): { version: string } | null {
  const m = pattern.regex.exec(value);
  if (!m) return null;
  return { version: pattern.version ? resolveVersion(pattern.version, m) : '' };
}

/** Fills `\1` and `\1?yes:no` from the match groups, as Wappalyzer does. */
export function resolveVersion(template: string, match: RegExpExecArray): string {
  let resolved = template;
  match.forEach((group, index) => {
    const ternary = new RegExp(`\\\\${index}\\?([^:]+):(.*)$`).exec(resolved);
    if (ternary) resolved = resolved.replace(ternary[0], group ? ternary[1] : ternary[2]);
    resolved = resolved.trim().replace(new RegExp(`\\\\${index}`, 'g'), group ?? '');
  });
  return resolved.length > 40 ? '' : resolved;
}
