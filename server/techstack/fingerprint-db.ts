import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parsePattern, splitTags, type Pattern } from './fingerprint-pattern.js';

type OneOrMany<T> = T | T[];

/** The part of a Wappalyzer-format technology record the matcher reads (webappanalyzer README). */
export interface RawTechnology {
  cats?: number[];
  website?: string;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  meta?: Record<string, OneOrMany<string>>;
  scriptSrc?: OneOrMany<string>;
  scripts?: OneOrMany<string>;
  html?: OneOrMany<string>;
  url?: OneOrMany<string>;
  text?: OneOrMany<string>;
  css?: OneOrMany<string>;
  xhr?: OneOrMany<string>;
  certIssuer?: OneOrMany<string>;
  js?: Record<string, string>;
  dom?: OneOrMany<string> | Record<string, RawDomRule>;
  implies?: OneOrMany<string>;
  excludes?: OneOrMany<string>;
  requires?: OneOrMany<string>;
  requiresCategory?: OneOrMany<number | string>;
}

export interface RawDomRule {
  exists?: string;
  text?: string;
  attributes?: Record<string, string>;
  properties?: Record<string, string>;
}

export interface RawCategory {
  name: string;
  priority?: number;
}

export interface Technology {
  name: string;
  /** Position in the data: the last tie-break between two technologies that exclude each other. */
  order: number;
  categories: number[];
  website?: string;
  implies: Array<{ name: string; confidence: number; version?: string }>;
  excludes: string[];
  requires: string[];
  requiresCategory: number[];
}

export interface Category {
  id: number;
  name: string;
  priority: number;
}

/** One pattern of one technology. `id` is unique in the set: a rule counts once however many values it matches. */
export interface Rule {
  id: number;
  tech: string;
  pattern: Pattern;
}

/** A technology's `dom` rule for one selector. */
export interface DomRule {
  tech: string;
  selector: string;
  exists?: Rule;
  text?: Rule;
  attributes: Array<{ name: string; rule: Rule }>;
  properties: Array<{ name: string; rule: Rule }>;
}

/** What to read from the elements one selector matches, merged over every technology that uses it. */
export interface DomQuery {
  selector: string;
  text: boolean;
  attributes: string[];
  properties: string[];
}

/**
 * Every pattern of the data, compiled once and indexed by the signal it reads, so a
 * request only tests the headers, cookies and meta names the page actually has.
 */
export interface FingerprintDb {
  technologies: Map<string, Technology>;
  categories: Map<number, Category>;
  /** Keyed by lowercased header name. */
  headers: Map<string, Rule[]>;
  /** Keyed by lowercased cookie name. */
  cookies: Map<string, Rule[]>;
  /** Cookie names with `*` wildcards (`_ga_*`). */
  cookieWildcards: Array<{ name: RegExp; rule: Rule }>;
  /** Keyed by lowercased meta name. */
  meta: Map<string, Rule[]>;
  scriptSrc: Rule[];
  scripts: Rule[];
  html: Rule[];
  url: Rule[];
  /** The page's visible text. */
  text: Rule[];
  /** Style sheet text. */
  css: Rule[];
  /** Host names of the requests the page's scripts made. */
  xhr: Rule[];
  /** The organisation (or name) that issued the site's TLS certificate. */
  certIssuer: Rule[];
  /** Keyed by property chain, case-sensitive as in the page. */
  js: Map<string, Rule[]>;
  dom: DomRule[];
  domQueries: DomQuery[];
  /** Patterns the JavaScript engine could not compile (skipped). */
  skipped: number;
}

const list = <T>(v: OneOrMany<T> | undefined): T[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);

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
  return compileFingerprints(read('technologies.json') as Record<string, RawTechnology>, read('categories.json') as Record<string, RawCategory>);
}

export function compileFingerprints(raw: Record<string, RawTechnology>, rawCats: Record<string, RawCategory>): FingerprintDb {
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
    text: [],
    css: [],
    xhr: [],
    certIssuer: [],
    js: new Map(),
    dom: [],
    domQueries: [],
    skipped: 0,
  };
  for (const [id, c] of Object.entries(rawCats)) db.categories.set(Number(id), { id: Number(id), name: c.name, priority: c.priority ?? 5 });
  const categoryByName = new Map([...db.categories.values()].map((c) => [c.name.toLowerCase(), c.id]));

  let nextId = 0;
  const rule = (tech: string, text: unknown): Rule | null => {
    const pattern = parsePattern(String(text));
    if (!pattern) db.skipped++;
    return pattern ? { id: nextId++, tech, pattern } : null;
  };
  const index = (map: Map<string, Rule[]>, key: string, r: Rule | null) => {
    if (!r) return;
    const rules = map.get(key);
    if (rules) rules.push(r);
    else map.set(key, [r]);
  };
  const push = (target: Rule[], tech: string, value: OneOrMany<string> | undefined) => {
    for (const text of list(value)) {
      const r = rule(tech, text);
      if (r) target.push(r);
    }
  };
  const names = (v: OneOrMany<string> | undefined) => list(v).map((e) => splitTags(String(e)).expr);

  let order = 0;
  for (const [name, t] of Object.entries(raw)) {
    db.technologies.set(name, {
      name,
      order: order++,
      categories: (t.cats ?? []).map(Number),
      website: t.website,
      implies: list(t.implies).map((text) => {
        const { expr, confidence, version } = splitTags(String(text));
        return { name: expr, confidence, version };
      }),
      excludes: names(t.excludes),
      requires: names(t.requires),
      // The data gives category ids; the README's example gives a name ("Ecommerce"), which
      // the engine (ids only) would never match: both are read here.
      requiresCategory: list(t.requiresCategory)
        .map((c) => (Number.isInteger(Number(c)) ? Number(c) : categoryByName.get(String(c).toLowerCase())))
        .filter((c): c is number => c !== undefined),
    });
    // Header, cookie and meta names are case-insensitive (the engine lowercases both sides).
    for (const [h, text] of Object.entries(t.headers ?? {})) index(db.headers, h.toLowerCase(), rule(name, text));
    for (const [c, text] of Object.entries(t.cookies ?? {})) {
      const r = rule(name, text);
      if (!r) continue;
      if (c.includes('*')) db.cookieWildcards.push({ name: wildcard(c), rule: r });
      else index(db.cookies, c.toLowerCase(), r);
    }
    for (const [m, texts] of Object.entries(t.meta ?? {})) for (const text of list(texts)) index(db.meta, m.toLowerCase(), rule(name, text));
    push(db.scriptSrc, name, t.scriptSrc);
    push(db.scripts, name, t.scripts);
    push(db.html, name, t.html);
    push(db.url, name, t.url);
    push(db.text, name, t.text);
    push(db.css, name, t.css);
    push(db.xhr, name, t.xhr);
    push(db.certIssuer, name, t.certIssuer);
    for (const [chain, text] of Object.entries(t.js ?? {})) index(db.js, chain, rule(name, text));
    db.dom.push(...domRules(name, t.dom, rule));
  }
  db.domQueries = domQueries(db.dom);
  return db;
}

/**
 * Cookie names with `*` (`_ga_*` for GA4's `_ga_<container id>`) match any run of characters.
 * The engine handles only `_ga_*`, by renaming cookies that match `/_ga_[A-Z0-9]+/` after it
 * has lowercased their names, so `_ga_ABC123` never matches there; here the data's wildcard
 * is matched against the name, case-insensitively like every cookie name.
 */
function wildcard(name: string): RegExp {
  return new RegExp(`^${name.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'i');
}

/** A string or list of selectors means "exists"; an object gives per selector what to test. */
function domRules(tech: string, dom: RawTechnology['dom'], rule: (tech: string, text: unknown) => Rule | null): DomRule[] {
  if (!dom) return [];
  const entries: Array<[string, RawDomRule]> =
    typeof dom === 'string' || Array.isArray(dom) ? list(dom).map((s) => [String(s), { exists: '' }]) : Object.entries(dom);
  return entries.map(([selector, r]) => ({
    tech,
    selector,
    exists: r.exists !== undefined ? (rule(tech, r.exists) ?? undefined) : undefined,
    text: r.text !== undefined ? (rule(tech, r.text) ?? undefined) : undefined,
    attributes: named(tech, r.attributes, rule),
    properties: named(tech, r.properties, rule),
  }));
}

function named(tech: string, record: Record<string, string> | undefined, rule: (tech: string, text: unknown) => Rule | null) {
  return Object.entries(record ?? {}).flatMap(([name, text]) => {
    const r = rule(tech, text);
    return r ? [{ name, rule: r }] : [];
  });
}

function domQueries(rules: DomRule[]): DomQuery[] {
  const bySelector = new Map<string, { text: boolean; attributes: Set<string>; properties: Set<string> }>();
  for (const r of rules) {
    const q = bySelector.get(r.selector) ?? { text: false, attributes: new Set<string>(), properties: new Set<string>() };
    q.text ||= Boolean(r.text);
    for (const a of r.attributes) q.attributes.add(a.name);
    for (const p of r.properties) q.properties.add(p.name);
    bySelector.set(r.selector, q);
  }
  return [...bySelector].map(([selector, q]) => ({ selector, text: q.text, attributes: [...q.attributes], properties: [...q.properties] }));
}
