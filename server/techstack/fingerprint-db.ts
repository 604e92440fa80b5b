import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parsePattern, parsePatterns, type Pattern } from './fingerprint-pattern.js';

/** The part of a Wappalyzer-format technology record the matcher reads. */
interface RawTech {
  cats?: number[];
  website?: string;
  description?: string;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  meta?: Record<string, string | string[]>;
  scriptSrc?: string | string[];
  scripts?: string | string[];
  html?: string | string[];
  url?: string | string[];
  js?: Record<string, string>;
  dom?: string | string[] | Record<string, DomRule>;
  implies?: string | string[];
  excludes?: string | string[];
  requires?: string | string[];
  requiresCategory?: number | number[];
}

export interface DomRule {
  exists?: string;
  text?: string;
  attributes?: Record<string, string>;
  properties?: Record<string, string>;
}

export interface Technology {
  name: string;
  categories: number[];
  website?: string;
  implies: Pattern[];
  impliesNames: string[];
  excludes: string[];
  requires: string[];
  requiresCategory: number[];
}

export interface Category {
  id: number;
  name: string;
  priority: number;
}

/** A pattern of one technology, keyed by what it looks at. */
export interface Rule {
  tech: string;
  pattern: Pattern;
}

/** A `dom` rule compiled for the browser: the selector and what to read. */
export interface DomProbe {
  tech: string;
  selector: string;
  exists?: Pattern;
  text?: Pattern;
  attributes?: Record<string, Pattern>;
  properties?: Record<string, Pattern>;
}

/**
 * Every pattern of the data, compiled once and indexed by the signal it reads, so a
 * request only tests the headers, cookies and meta names the page actually has.
 */
export interface FingerprintDb {
  technologies: Map<string, Technology>;
  categories: Map<number, Category>;
  headers: Map<string, Rule[]>;
  cookies: Map<string, Rule[]>;
  /** Cookie names with `*` wildcards (`_ga_*`). */
  cookieWildcards: Array<Rule & { name: RegExp }>;
  meta: Map<string, Rule[]>;
  scriptSrc: Rule[];
  scripts: Rule[];
  html: Rule[];
  url: Rule[];
  js: Map<string, Rule[]>;
  dom: DomProbe[];
  /** Patterns the JavaScript engine could not compile (skipped). */
  skipped: number;
}

const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Loads `technologies.json` and `categories.json` from `dir` and compiles them. */
export function loadFingerprintDb(dir: string): FingerprintDb {
  const read = (file: string) => {
    const p = path.resolve(dir, file);
    try {
      return JSON.parse(readFileSync(p, 'utf8')) as unknown;
    } catch (err) {
      throw new Error(`fingerprint data missing or unreadable at ${p}: run scripts/fetch-fingerprints.sh (${(err as Error).message})`);
    }
  };
  return compileFingerprints(read('technologies.json') as Record<string, RawTech>, read('categories.json') as Record<string, { name: string; priority?: number }>);
}

export function compileFingerprints(raw: Record<string, RawTech>, rawCats: Record<string, { name: string; priority?: number }>): FingerprintDb {
  const db: FingerprintDb = {
    technologies: new Map(),
    categories: new Map(),
    headers: new Map(),
    cookies: new Map(),
    cookieWildcards: [],
    meta: new Map(),
    scriptSrc: [],
    scripts: [],
    html: [],
    url: [],
    js: new Map(),
    dom: [],
    skipped: 0,
  };
  for (const [id, c] of Object.entries(rawCats)) db.categories.set(Number(id), { id: Number(id), name: c.name, priority: c.priority ?? 5 });

  const add = (map: Map<string, Rule[]>, key: string, rule: Rule) => {
    const k = key.toLowerCase();
    const rules = map.get(k);
    if (rules) rules.push(rule);
    else map.set(k, [rule]);
  };
  const compile = (tech: string, text: string): Rule | null => {
    const pattern = parsePattern(text);
    if (!pattern) db.skipped++;
    return pattern ? { tech, pattern } : null;
  };
  const pushAll = (target: Rule[], tech: string, value: unknown) => {
    for (const text of list(value as string | string[])) {
      const rule = compile(tech, String(text));
      if (rule) target.push(rule);
    }
  };

  for (const [name, t] of Object.entries(raw)) {
    const implies = parsePatterns(t.implies);
    db.technologies.set(name, {
      name,
      categories: t.cats ?? [],
      website: t.website,
      implies,
      impliesNames: implies.map((p) => p.source),
      excludes: list(t.excludes).map((e) => String(e).split('\\;')[0]),
      requires: list(t.requires).map((e) => String(e).split('\\;')[0]),
      requiresCategory: list(t.requiresCategory).map(Number),
    });
    for (const [h, text] of Object.entries(t.headers ?? {})) {
      const rule = compile(name, text);
      if (rule) add(db.headers, h, rule);
    }
    for (const [c, text] of Object.entries(t.cookies ?? {})) {
      const rule = compile(name, text);
      if (!rule) continue;
      if (c.includes('*')) {
        const re = new RegExp(`^${c.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i');
        db.cookieWildcards.push({ ...rule, name: re });
      } else add(db.cookies, c, rule);
    }
    for (const [m, texts] of Object.entries(t.meta ?? {})) {
      for (const text of list(texts)) {
        const rule = compile(name, String(text));
        if (rule) add(db.meta, m, rule);
      }
    }
    pushAll(db.scriptSrc, name, t.scriptSrc);
    pushAll(db.scripts, name, t.scripts);
    pushAll(db.html, name, t.html);
    pushAll(db.url, name, t.url);
    for (const [chain, text] of Object.entries(t.js ?? {})) {
      const rule = compile(name, text);
      if (!rule) continue;
      // Property names are case-sensitive in the page, unlike header names.
      const rules = db.js.get(chain);
      if (rules) rules.push(rule);
      else db.js.set(chain, [rule]);
    }
    db.dom.push(...compileDom(name, t.dom, () => db.skipped++));
  }
  return db;
}

function compileDom(tech: string, dom: RawTech['dom'], onSkip: () => void): DomProbe[] {
  if (!dom) return [];
  if (typeof dom === 'string' || Array.isArray(dom)) {
    return list(dom).map((selector) => ({ tech, selector: String(selector), exists: parsePattern('') ?? undefined }));
  }
  const probes: DomProbe[] = [];
  const pat = (text: string) => {
    const p = parsePattern(text);
    if (!p) onSkip();
    return p ?? undefined;
  };
  const record = (r: Record<string, string> | undefined) => {
    if (!r) return undefined;
    const out: Record<string, ReturnType<typeof parsePattern> & object> = {};
    for (const [k, v] of Object.entries(r)) {
      const p = pat(v);
      if (p) out[k] = p;
    }
    return out;
  };
  for (const [selector, rule] of Object.entries(dom)) {
    probes.push({
      tech,
      selector,
      exists: rule.exists !== undefined ? pat(rule.exists) : undefined,
      text: rule.text !== undefined ? pat(rule.text) : undefined,
      attributes: record(rule.attributes),
      properties: record(rule.properties),
    });
  }
  return probes;
}
