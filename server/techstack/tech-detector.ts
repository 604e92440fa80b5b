import { loadFingerprintDb, type FingerprintDb, type Rule } from './fingerprint-db.js';
import { testPattern } from './fingerprint-pattern.js';

/** What a page offers for fingerprinting; names lowercased. */
export interface PageSignals {
  url: string;
  headers: Record<string, string[]>;
  cookies: Record<string, string>;
  meta: Record<string, string[]>;
  scriptSrc: string[];
  /** Inline script bodies. */
  scripts: string[];
  html: string;
  /** Browser only: global property chain → its value as text (`jQuery.fn.jquery` → `3.7.1`). */
  js?: Record<string, string>;
  /** Browser only: per `dom` probe index, what the first matching elements showed. */
  dom?: DomFinding[];
}

export interface DomFinding {
  probe: number;
  text?: string;
  attributes?: Record<string, string>;
  properties?: Record<string, string>;
}

export type EvidenceType = 'header' | 'cookie' | 'meta' | 'script_src' | 'script' | 'html' | 'url' | 'js' | 'dom' | 'implied';

export interface Evidence {
  type: EvidenceType;
  /** Header, cookie or meta name, global chain, selector, or the implying technology. */
  name?: string;
  /** The text that matched (shortened). */
  value: string;
}

export interface DetectedTechnology {
  name: string;
  version: string | null;
  /** 0–100, the sum of the matched patterns' confidence. */
  confidence: number;
  categories: string[];
  website: string | null;
  evidence: Evidence[];
}

export interface Detection {
  /** Category name → technologies in it (a technology with several categories is listed in each). */
  byCategory: Record<string, DetectedTechnology[]>;
  list: DetectedTechnology[];
}

export interface TechDetector {
  /** Compiles the data now (otherwise on first use); rejects when the data is missing. */
  ready(): Promise<FingerprintDb>;
  detect(signals: PageSignals): Promise<Detection>;
}

/** Loads the fingerprint data once, lazily, so boot stays fast and a missing file fails only this API. */
export function createTechDetector(opts: { dataDir: string }): TechDetector {
  let db: FingerprintDb | undefined;
  const ready = async () => (db ??= loadFingerprintDb(opts.dataDir));
  return {
    ready,
    async detect(signals) {
      return detectTechnologies(await ready(), signals);
    },
  };
}

const HTML_HEAD = 400_000;
const HTML_TAIL = 100_000;
const short = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}...` : s);

interface Hit {
  confidence: number;
  versions: string[];
  evidence: Evidence[];
}

export function detectTechnologies(db: FingerprintDb, s: PageSignals): Detection {
  const hits = new Map<string, Hit>();
  const record = (rule: Rule, value: string, ev: Omit<Evidence, 'value'>) => {
    const m = testPattern(rule.pattern, value);
    if (!m) return;
    const hit = hits.get(rule.tech) ?? { confidence: 0, versions: [], evidence: [] };
    hit.confidence += rule.pattern.confidence;
    if (m.version) hit.versions.push(m.version);
    if (hit.evidence.length < 5) {
      const shown = rule.pattern.regex.exec(value)?.[0] || value;
      hit.evidence.push({ ...ev, value: short(shown) });
    }
    hits.set(rule.tech, hit);
  };

  for (const [name, values] of Object.entries(s.headers)) {
    for (const rule of db.headers.get(name) ?? []) for (const v of values) record(rule, v, { type: 'header', name });
  }
  for (const [name, value] of Object.entries(s.cookies)) {
    for (const rule of db.cookies.get(name.toLowerCase()) ?? []) record(rule, value, { type: 'cookie', name });
    for (const rule of db.cookieWildcards) if (rule.name.test(name)) record(rule, value, { type: 'cookie', name });
  }
  for (const [name, values] of Object.entries(s.meta)) {
    for (const rule of db.meta.get(name) ?? []) for (const v of values) record(rule, v, { type: 'meta', name });
  }
  for (const src of s.scriptSrc) for (const rule of db.scriptSrc) record(rule, src, { type: 'script_src' });
  const inline = s.scripts.map((t) => t.slice(0, 50_000)).join('\n');
  if (inline) for (const rule of db.scripts) record(rule, inline, { type: 'script' });
  const html = s.html.length > HTML_HEAD + HTML_TAIL ? s.html.slice(0, HTML_HEAD) + s.html.slice(-HTML_TAIL) : s.html;
  for (const rule of db.html) record(rule, html, { type: 'html' });
  for (const rule of db.url) record(rule, s.url, { type: 'url' });
  for (const [chain, value] of Object.entries(s.js ?? {})) {
    for (const rule of db.js.get(chain) ?? []) record(rule, value, { type: 'js', name: chain });
  }
  for (const f of s.dom ?? []) matchDom(db, f, record);

  applyImplies(db, hits);
  applyRequires(db, hits);
  for (const name of [...hits.keys()]) {
    for (const ex of db.technologies.get(name)?.excludes ?? []) hits.delete(ex);
  }
  return shape(db, hits);
}

function matchDom(db: FingerprintDb, f: DomFinding, record: (rule: Rule, value: string, ev: Omit<Evidence, 'value'>) => void) {
  const probe = db.dom[f.probe];
  if (!probe) return;
  const ev = { type: 'dom' as const, name: probe.selector };
  if (probe.exists) record({ tech: probe.tech, pattern: probe.exists }, '', ev);
  if (probe.text && f.text !== undefined) record({ tech: probe.tech, pattern: probe.text }, f.text, ev);
  for (const [k, p] of Object.entries(probe.attributes ?? {})) {
    const v = f.attributes?.[k];
    if (v !== undefined) record({ tech: probe.tech, pattern: p }, v, ev);
  }
  for (const [k, p] of Object.entries(probe.properties ?? {})) {
    const v = f.properties?.[k];
    if (v !== undefined) record({ tech: probe.tech, pattern: p }, v, ev);
  }
}

function applyImplies(db: FingerprintDb, hits: Map<string, Hit>) {
  const queue = [...hits.keys()];
  while (queue.length) {
    const by = queue.shift() as string;
    for (const p of db.technologies.get(by)?.implies ?? []) {
      const name = p.source;
      if (!db.technologies.has(name)) continue;
      const existing = hits.get(name);
      if (existing) {
        if (!existing.evidence.some((e) => e.type === 'implied' && e.value === by) && existing.evidence.length < 6) {
          existing.evidence.push({ type: 'implied', value: by });
        }
        continue;
      }
      hits.set(name, { confidence: p.confidence, versions: p.version ? [p.version] : [], evidence: [{ type: 'implied', value: by }] });
      queue.push(name);
    }
  }
}

/** Drops technologies whose `requires` / `requiresCategory` are not detected, until stable. */
function applyRequires(db: FingerprintDb, hits: Map<string, Hit>) {
  for (let changed = true; changed; ) {
    changed = false;
    const cats = new Set([...hits.keys()].flatMap((n) => db.technologies.get(n)?.categories ?? []));
    for (const name of [...hits.keys()]) {
      const t = db.technologies.get(name);
      if (!t) continue;
      const missing = t.requires.some((r) => !hits.has(r)) || t.requiresCategory.some((c) => !cats.has(c));
      if (missing) {
        hits.delete(name);
        changed = true;
      }
    }
  }
}

/** The most specific version seen: most dotted parts, then highest. */
function bestVersion(versions: string[]): string | null {
  const parts = (v: string) => v.split('.').map((x) => Number.parseInt(x, 10) || 0);
  const sorted = versions.filter(Boolean).sort((a, b) => {
    const pa = parts(a);
    const pb = parts(b);
    if (pa.length !== pb.length) return pb.length - pa.length;
    for (let i = 0; i < pa.length; i++) if (pa[i] !== pb[i]) return pb[i] - pa[i];
    return 0;
  });
  return sorted[0] ?? null;
}

function shape(db: FingerprintDb, hits: Map<string, Hit>): Detection {
  const list: DetectedTechnology[] = [];
  const byCategory: Record<string, DetectedTechnology[]> = {};
  const entries = [...hits.entries()].filter(([, h]) => h.confidence > 0);
  const catPriority = (ids: number[]) => Math.min(...ids.map((id) => db.categories.get(id)?.priority ?? 9), 9);
  entries.sort(([a], [b]) => catPriority(db.technologies.get(a)?.categories ?? []) - catPriority(db.technologies.get(b)?.categories ?? []) || a.localeCompare(b));
  for (const [name, hit] of entries) {
    const t = db.technologies.get(name);
    const categories = (t?.categories ?? []).map((id) => db.categories.get(id)?.name ?? `Category ${id}`);
    const tech: DetectedTechnology = {
      name,
      version: bestVersion(hit.versions),
      confidence: Math.min(100, hit.confidence),
      categories,
      website: t?.website ?? null,
      evidence: hit.evidence,
    };
    list.push(tech);
    for (const c of categories.length ? categories : ['Other']) (byCategory[c] ??= []).push(tech);
  }
  return { byCategory, list };
}
