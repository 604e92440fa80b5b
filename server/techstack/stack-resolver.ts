import type { FingerprintDb, Technology } from './fingerprint-db.js';
import { MAX_EVIDENCE, type Evidence, type Hit } from './signal-matcher.js';
import { isUsableVersion } from './version-order.js';

/** A technology the page is taken to use, before it is shaped for the report. */
export interface Resolved {
  name: string;
  /** 0–100. */
  confidence: number;
  versions: string[];
  evidence: Evidence[];
}

/** What decides which of two technologies that exclude each other stays. */
interface Strength {
  confidence: number;
  hasVersion: boolean;
  rulesMatched: number;
  order: number;
}

/**
 * From what the patterns found to what the page uses, in the engine's order: a
 * technology with `requires` / `requiresCategory` counts only once what it requires is
 * resolved; then `excludes` among the detected ones; then `implies` from what remains.
 *
 * As in the engine, a technology with `requires` is taken in when any one of its required
 * technologies or categories is resolved (the data relies on that: ShoppingFeeder requires
 * "Magento, Shopify, OpenCart, …"), and what it requires may itself be implied. The
 * engine then matches such a technology again without the response headers, so one known
 * only by its headers (LiteSpeed Cache's `x-litespeed-cache`) is never found there; here
 * every signal counts for it.
 *
 * A technology whose patterns add up to confidence 0 (the data's `\;confidence:0`
 * patterns only give a version) is not detected: the engine lists it at 0.
 */
export function resolveStack(db: FingerprintDb, hits: Map<string, Hit>): Map<string, Resolved> {
  const detected = new Map([...hits].filter(([name, hit]) => db.technologies.has(name) && sumConfidence(hit) > 0));
  const tech = (name: string) => db.technologies.get(name) as Technology;
  const gated = (name: string) => tech(name).requires.length > 0 || tech(name).requiresCategory.length > 0;
  const accepted = new Set([...detected.keys()].filter((n) => !gated(n)));
  for (;;) {
    const resolved = resolveOnce(db, detected, accepted);
    const categories = new Set([...resolved.keys()].flatMap((n) => tech(n).categories));
    const newly = [...detected.keys()].filter(
      (n) => !accepted.has(n) && (tech(n).requires.some((r) => resolved.has(r)) || tech(n).requiresCategory.some((c) => categories.has(c))),
    );
    if (!newly.length) return resolved;
    for (const n of newly) accepted.add(n);
  }
}

function sumConfidence(hit: Hit): number {
  let sum = 0;
  for (const c of hit.rules.values()) sum += c;
  return Math.min(100, sum);
}

function resolveOnce(db: FingerprintDb, detected: Map<string, Hit>, accepted: Set<string>): Map<string, Resolved> {
  const out = new Map<string, Resolved>();
  for (const name of keepAfterExcludes(db, detected, accepted)) {
    const hit = detected.get(name) as Hit;
    out.set(name, { name, confidence: sumConfidence(hit), versions: [...hit.versions], evidence: [...hit.evidence] });
  }
  addImplied(db, out);
  return out;
}

/**
 * When one detected technology excludes another, one of them stays, never neither. Where
 * only one side names the other (Arastta excludes OpenCart, whose markers it carries), the
 * side that names the other stays, as in the engine. Where both name each other (Angular
 * and AngularJS, Lodash and Underscore.js), the stronger evidence stays: higher confidence,
 * then a version, then more rules matched, then the data's order. The engine removes
 * whatever the first technology in its list excludes, so there the survivor of a mutual
 * pair depends on detection order.
 */
function keepAfterExcludes(db: FingerprintDb, detected: Map<string, Hit>, accepted: Set<string>): string[] {
  const strength = (name: string): Strength => {
    const hit = detected.get(name) as Hit;
    return {
      confidence: sumConfidence(hit),
      hasVersion: hit.versions.some(isUsableVersion),
      rulesMatched: hit.rules.size,
      order: (db.technologies.get(name) as Technology).order,
    };
  };
  const excludes = (a: string, b: string) => (db.technologies.get(a) as Technology).excludes.includes(b);
  const beats = (a: string, b: string) => {
    const ab = excludes(a, b);
    const ba = excludes(b, a);
    if (ab !== ba) return ab;
    return ab && stronger(strength(a), strength(b));
  };
  const remaining = [...accepted].sort((a, b) => (stronger(strength(a), strength(b)) ? -1 : 1));
  const kept: string[] = [];
  while (remaining.length) {
    // The strongest one that nothing left beats; a cycle of one-way excludes falls back to the strongest.
    const i = Math.max(0, remaining.findIndex((a) => !remaining.some((b) => b !== a && beats(b, a))));
    const [pick] = remaining.splice(i, 1);
    kept.push(pick);
    for (let j = remaining.length - 1; j >= 0; j--) if (excludes(pick, remaining[j]) || excludes(remaining[j], pick)) remaining.splice(j, 1);
  }
  return kept;
}

function stronger(a: Strength, b: Strength): boolean {
  if (a.confidence !== b.confidence) return a.confidence > b.confidence;
  if (a.hasVersion !== b.hasVersion) return a.hasVersion;
  if (a.rulesMatched !== b.rulesMatched) return a.rulesMatched > b.rulesMatched;
  return a.order < b.order;
}

/**
 * Adds what the remaining technologies imply, transitively. An implied technology gets
 * the implier's confidence, capped by the implication's own `\;confidence:` (the engine's
 * `Math.min(confidence, _confidence)`, so a chain keeps its weakest link), and the
 * implication's `\;version:`.
 *
 * Two points differ from the engine, which only adds what is missing: a technology found
 * by its own patterns and also implied with a higher confidence takes the higher one (a
 * weak PHP pattern at 50 beside WordPress at 100 is PHP at 100, not 50); and nothing is
 * implied into a conflict with what an `excludes` already settled (Backbone implies
 * Underscore.js, which must not come back beside the Lodash that excluded it), where the
 * engine re-adds it.
 */
function addImplied(db: FingerprintDb, out: Map<string, Resolved>) {
  const conflicts = (name: string) =>
    [...out.keys()].some((o) => db.technologies.get(o)?.excludes.includes(name) || db.technologies.get(name)?.excludes.includes(o));
  const queue = [...out.keys()];
  while (queue.length) {
    const by = out.get(queue.shift() as string) as Resolved;
    for (const imp of db.technologies.get(by.name)?.implies ?? []) {
      if (!db.technologies.has(imp.name) || imp.name === by.name) continue;
      const confidence = Math.min(by.confidence, imp.confidence);
      const evidence: Evidence = { type: 'implied', value: by.name };
      const existing = out.get(imp.name);
      if (!existing) {
        if (conflicts(imp.name)) continue;
        out.set(imp.name, { name: imp.name, confidence, versions: imp.version ? [imp.version] : [], evidence: [evidence] });
        queue.push(imp.name);
        continue;
      }
      if (imp.version && !existing.versions.includes(imp.version)) existing.versions.push(imp.version);
      if (existing.evidence.length < MAX_EVIDENCE && !existing.evidence.some((e) => e.type === 'implied' && e.value === by.name)) {
        existing.evidence.push(evidence);
      }
      if (confidence > existing.confidence) {
        existing.confidence = confidence;
        queue.push(imp.name); // what it implies gets the higher confidence too
      }
    }
  }
}
