import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RawCategory, RawTechnology } from '../../../server/techstack/fingerprint-db.js';
import type { FixtureHandler } from './fixture-site.js';

/** What the report must say of one technology. `versions` defaults to `[version]` or `[]`. */
export interface Expected {
  name: string;
  version?: string;
  versions?: string[];
  confidence: number;
}

/**
 * One row of a rule table: a small fingerprint set, what the loopback site serves, and
 * the exact technologies the report lists (the same in both modes, or per mode).
 */
export interface TechCase {
  title: string;
  technologies: Record<string, RawTechnology>;
  /** The HTML served at `path`. */
  page?: string;
  /** Header lines in order; a name given twice is sent as two lines. */
  headers?: Array<[string, string]>;
  /** `Set-Cookie` lines. */
  cookies?: string[];
  /** Other files of the site (scripts the page loads). */
  files?: Record<string, { body: string; type: string }>;
  /** Paths that redirect (301) to another path. */
  redirects?: Record<string, string>;
  /** The path analysed; the page is served at the last hop. @default '/' */
  path?: string;
  expect: Expected[] | { fetch: Expected[]; render: Expected[] };
  /**
   * Where the Wappalyzer engine reports otherwise on this page and why (its own mistake, or
   * a signal it reads only in a browser); the engine comparison bench expects a difference here.
   */
  engine?: { fetch?: string; render?: string };
}

export type Mode = 'fetch' | 'render';

/** The same reason for a difference with the engine in both modes. */
export const inBothModes = (why: string) => ({ fetch: why, render: why });

/** A few categories for the inline sets (ids as in the real data: 1 CMS, 6 Ecommerce, 12 JavaScript frameworks…). */
export const testCategories: Record<string, RawCategory> = {
  1: { name: 'CMS', priority: 1 },
  6: { name: 'Ecommerce', priority: 1 },
  12: { name: 'JavaScript frameworks', priority: 8 },
  22: { name: 'Web servers', priority: 8 },
  27: { name: 'Programming languages', priority: 5 },
  59: { name: 'JavaScript libraries', priority: 9 },
  87: { name: 'WordPress plugins', priority: 9 },
};

export function expected(c: TechCase, mode: Mode): Expected[] {
  return Array.isArray(c.expect) ? c.expect : c.expect[mode];
}

export const label = (e: Expected) => `${e.name}${e.version ? ` ${e.version}` : ''} at ${e.confidence}`;

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

export function normalise(want: Expected[]) {
  return want
    .map((e) => ({ name: e.name, version: e.version ?? null, versions: e.versions ?? (e.version ? [e.version] : []), confidence: e.confidence }))
    .sort(byName);
}

export type Reported = { name: string; version: string | null; versions: string[]; confidence: number };

/** Writes the case's fingerprint set (each technology in CMS unless it names its categories) to a new temporary directory. */
export async function writeCaseFingerprints(c: TechCase): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sitelens-fingerprints-'));
  await writeFile(path.join(dir, 'technologies.json'), JSON.stringify(caseTechnologies(c)));
  await writeFile(path.join(dir, 'categories.json'), JSON.stringify(testCategories));
  return dir;
}

export function caseTechnologies(c: TechCase): Record<string, RawTechnology> {
  return Object.fromEntries(Object.entries(c.technologies).map(([name, t]) => [name, { cats: [1], ...t }]));
}

/** One entry per technology (a technology is listed under each of its categories). */
export function reported(byCategory: Record<string, Reported[]>) {
  const seen = new Map<string, Reported>();
  for (const t of Object.values(byCategory).flat()) seen.set(t.name, t);
  return [...seen.values()].map(({ name, version, versions, confidence }) => ({ name, version, versions, confidence })).sort(byName);
}

export function caseRoutes(c: TechCase): Record<string, FixtureHandler> {
  const out: Record<string, FixtureHandler> = {};
  for (const [from, to] of Object.entries(c.redirects ?? {})) out[from] = (_req, res) => res.writeHead(301, { location: to }).end();
  for (const [file, { body, type }] of Object.entries(c.files ?? {})) out[file] = (_req, res) => res.writeHead(200, { 'content-type': type }).end(body);
  let pagePath = c.path ?? '/';
  while (c.redirects?.[pagePath]) pagePath = c.redirects[pagePath];
  out[pagePath.split('?')[0]] = (_req, res) => {
    // A flat list of name, value, name, value…: Node sends a name given twice as two lines.
    const lines = [['content-type', 'text/html; charset=utf-8'], ...(c.headers ?? []), ...(c.cookies ?? []).map((v) => ['set-cookie', v])];
    res.writeHead(200, lines.flat()).end(c.page ?? '<!doctype html><html><head><title>Case</title></head><body><p>Case</p></body></html>');
  };
  return out;
}
