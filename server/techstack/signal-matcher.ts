import type { FingerprintDb, Rule } from './fingerprint-db.js';
import { matchPattern } from './fingerprint-pattern.js';
import type { PageSignals } from './page-signals.js';

export type EvidenceType = 'header' | 'cookie' | 'meta' | 'script_src' | 'script' | 'html' | 'url' | 'js' | 'dom' | 'text' | 'css' | 'xhr' | 'cert_issuer' | 'implied';

export interface Evidence {
  type: EvidenceType;
  /** Header, cookie or meta name, global chain, selector, or the implying technology. */
  name?: string;
  /** The text that matched (shortened). */
  value: string;
}

/** What the patterns of one technology found on the page. */
export interface Hit {
  /**
   * Rule id → its confidence: a rule counts once however many values it matches. The engine
   * keeps one detection per technology, regex text and version instead, so two rules written
   * alike (two empty patterns at 50) count once there, and one rule counts again for every
   * other version it captures.
   */
  rules: Map<number, number>;
  /** Every version a matching pattern named. */
  versions: string[];
  evidence: Evidence[];
}

export const MAX_EVIDENCE = 5;

/** The HTML a pattern reads: its head and tail when it is very long. */
const HTML_HEAD = 3_000_000;
const HTML_TAIL = 3_000_000;

const short = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}...` : s);

/**
 * Tests every rule against every value of the signal it reads: each header line, each
 * cookie, each meta tag, script URL and script, and each value of the elements a `dom`
 * selector matched.
 */
export function matchSignals(db: FingerprintDb, s: PageSignals): Map<string, Hit> {
  const hits = new Map<string, Hit>();
  const test = (rule: Rule, value: string, ev: Omit<Evidence, 'value'>) => {
    const m = matchPattern(rule.pattern, value);
    if (!m) return;
    let hit = hits.get(rule.tech);
    if (!hit) hits.set(rule.tech, (hit = { rules: new Map(), versions: [], evidence: [] }));
    hit.rules.set(rule.id, rule.pattern.confidence);
    if (m.version && !hit.versions.includes(m.version)) hit.versions.push(m.version);
    // An `exists` rule matches '' on an element: its selector is what was found.
    if (hit.evidence.length < MAX_EVIDENCE) hit.evidence.push({ ...ev, value: short(m.matched || value || (ev.name ?? '')) });
  };
  const each = (rules: Rule[] | undefined, values: string[] | undefined, ev: Omit<Evidence, 'value'>) => {
    for (const rule of rules ?? []) for (const v of values ?? []) test(rule, v, ev);
  };

  // The engine's driver gets a repeated header as one value, its lines joined by "\n", so a
  // `^` pattern only ever sees the first line (PHP's X-Powered-By hides Plesk's); each line is its own value here.
  for (const [name, lines] of Object.entries(s.headers)) each(db.headers.get(name), lines, { type: 'header', name });
  for (const [name, values] of Object.entries(s.cookies)) {
    each(db.cookies.get(name), values, { type: 'cookie', name });
    for (const w of db.cookieWildcards) if (w.name.test(name)) each([w.rule], values, { type: 'cookie', name });
  }
  for (const [name, values] of Object.entries(s.meta)) each(db.meta.get(name), values, { type: 'meta', name });
  each(db.scriptSrc, s.scriptSrc, { type: 'script_src' });
  // The engine tests its list of inline scripts as one string (the array joined by commas),
  // so a pattern could match across two scripts and `^` only at the first; each script is
  // tested alone here.
  each(db.scripts, s.scripts, { type: 'script' });
  each(db.html, [htmlWindow(s.html)], { type: 'html' });
  each(db.url, [s.url], { type: 'url' });
  each(db.text, [s.text], { type: 'text' });
  // Each style sheet alone (the engine joins every rule of every sheet into one string).
  each(db.css, s.css, { type: 'css' });
  each(db.xhr, s.xhr, { type: 'xhr' });
  each(db.certIssuer, s.certIssuer, { type: 'cert_issuer' });
  for (const [chain, value] of Object.entries(s.js)) each(db.js.get(chain), [value], { type: 'js', name: chain });
  matchDom(db, s, test);
  return hits;
}

/**
 * The head and tail of a very long page, as the engine keeps its first and last 1,500 rows
 * of 2,000 characters. It also puts a line break between every two rows, which breaks a
 * match that spans one; the page is left whole here.
 */
function htmlWindow(html: string): string {
  return html.length > HTML_HEAD + HTML_TAIL ? `${html.slice(0, HTML_HEAD)}\n${html.slice(-HTML_TAIL)}` : html;
}

function matchDom(db: FingerprintDb, s: PageSignals, test: (rule: Rule, value: string, ev: Omit<Evidence, 'value'>) => void) {
  if (!s.dom.length) return;
  const found = new Map(s.dom.map((f) => [f.selector, f]));
  for (const r of db.dom) {
    const f = found.get(r.selector);
    if (!f) continue;
    const ev = { type: 'dom' as const, name: r.selector };
    if (r.exists) test(r.exists, '', ev);
    if (r.text) for (const t of f.texts) test(r.text, t, ev);
    for (const a of r.attributes) for (const v of f.attributes[a.name] ?? []) test(a.rule, v, ev);
    for (const p of r.properties) for (const v of f.properties[p.name] ?? []) test(p.rule, v, ev);
  }
}
