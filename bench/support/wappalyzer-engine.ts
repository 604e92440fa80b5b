/**
 * The Wappalyzer engine (wappalyzer-core 6.10.66 and its browser driver from wappalyzer
 * 6.10.66, GPL-3.0), loaded from the bench peers (bench/support/install-peers.sh), never
 * a dependency. Two readings of a page:
 *
 * - render: the engine's own driver loads the page in Debian's Chromium (through its own
 *   puppeteer 19) and does everything itself: headers, cookies, html, scripts, js, dom,
 *   requires, resolve.
 * - fetch: the engine has no fetch mode; its core (`analyze`, `resolve`) is fed from one
 *   HTTP response the way its driver reads a page (a repeated header's lines joined by
 *   "\n" as Chromium gives them, cookie names lowercased with the `_ga_` renaming, meta by
 *   name or property, the HTML in its 2,000-column rows, inline scripts as one list), and
 *   its driver's `requires` round is replayed (a second `analyze` without headers).
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as cheerio from 'cheerio';
import type { RawCategory, RawTechnology } from '../../server/techstack/fingerprint-db.js';

export interface EngineTech {
  name: string;
  version: string | null;
  confidence: number;
}

interface EngineTechnology {
  name: string;
  categories: number[];
}
interface Detection {
  technology: EngineTechnology;
  pattern: { regex: RegExp };
  version: string;
}
interface Resolved {
  name: string;
  version: string;
  confidence: number;
  categories: Array<{ id: number }>;
}
interface Core {
  technologies: EngineTechnology[];
  requires: Array<{ name: string; technologies: EngineTechnology[] }>;
  categoryRequires: Array<{ categoryId: number; technologies: EngineTechnology[] }>;
  setTechnologies(data: Record<string, RawTechnology>): void;
  setCategories(data: Record<string, RawCategory>): void;
  analyze(items: Record<string, unknown>, technologies?: EngineTechnology[]): Detection[];
  resolve(detections: Detection[]): Resolved[];
}
interface DriverSite {
  analyze(): Promise<{ technologies: Array<{ name: string; version: string | null; confidence: number }> }>;
  destroy(): Promise<void>;
}
interface Driver {
  init(): Promise<void>;
  open(url: string): Promise<DriverSite>;
  destroy(): Promise<void>;
}

const peers = path.resolve('data/bench-peers/wappalyzer');
const profile = path.join(peers, 'chromium-profile');

export function engineInstalled(): boolean {
  return existsSync(path.join(peers, 'node_modules/wappalyzer/driver.js'));
}

export function loadEngine(chromePath: string) {
  const require = createRequire(path.join(peers, 'package.json'));
  // The driver reads its Chromium settings from the environment when it is first loaded.
  process.env.CHROMIUM_BIN = chromePath;
  process.env.CHROMIUM_ARGS = [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    `--user-data-dir=${profile}`,
  ].join(' ');
  // The driver's own copy of the core is the one it calls; it is byte-identical to wappalyzer-core 6.10.66.
  const core = require('wappalyzer/wappalyzer') as Core;
  const DriverClass = require('wappalyzer/driver') as new (options: Record<string, unknown>) => Driver;

  const use = (technologies: Record<string, RawTechnology>, categories: Record<string, RawCategory>) => {
    core.requires = []; // setTechnologies adds to these instead of replacing them
    core.categoryRequires = [];
    core.setTechnologies(technologies);
    core.setCategories(categories);
  };

  return {
    async render(url: string, technologies: Record<string, RawTechnology>, categories: Record<string, RawCategory>): Promise<EngineTech[]> {
      use(technologies, categories);
      // A browser per page: the driver's browser keeps its cookie jar, and every bench page is on 127.0.0.1.
      await rm(profile, { recursive: true, force: true });
      // Not `fast`: its 2 s limit on reading globals and elements is too short for the full data's 7,500 technologies.
      const driver = new DriverClass({ delay: 0, maxWait: 30_000 });
      await driver.init();
      try {
        const site = await driver.open(url);
        const { technologies: found } = await site.analyze();
        await site.destroy();
        return found.map((t) => ({ name: t.name, version: t.version || null, confidence: t.confidence }));
      } finally {
        await driver.destroy();
      }
    },

    async fetch(url: string, technologies: Record<string, RawTechnology>, categories: Record<string, RawCategory>): Promise<EngineTech[]> {
      use(technologies, categories);
      const items = await driverItems(url);
      let detections = dedupe(core.analyze(items));
      const analysed = new Set<string>();
      for (;;) {
        const resolved = core.resolve(detections);
        const due = [
          ...core.requires.filter((r) => resolved.some((t) => t.name === r.name)).map((r) => ({ id: `t:${r.name}`, technologies: r.technologies })),
          ...core.categoryRequires
            .filter((r) => resolved.some((t) => t.categories.some((c) => c.id === r.categoryId)))
            .map((r) => ({ id: `c:${r.categoryId}`, technologies: r.technologies })),
        ].filter((r) => !analysed.has(r.id));
        if (!due.length) break;
        for (const r of due) {
          analysed.add(r.id);
          const { headers: _headers, ...withoutHeaders } = items; // the driver's requires round has no headers
          detections = dedupe([...detections, ...core.analyze(withoutHeaders, r.technologies)]);
        }
      }
      return core.resolve(detections).map((t) => ({ name: t.name, version: t.version || null, confidence: t.confidence }));
    },

    async close() {
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** As the driver's onDetect: one detection per technology, regex and version. */
function dedupe(detections: Detection[]): Detection[] {
  const seen = new Set<string>();
  return detections.filter((d) => {
    const key = `${d.technology.name}\0${String(d.pattern.regex)}\0${d.version}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** What the engine's driver would read from the page, taken from one plain HTTP response. */
async function driverItems(url: string): Promise<Record<string, unknown>> {
  const { finalUrl, rawHeaders, body } = await get(url);
  const headers: Record<string, string[]> = {};
  const joined: Record<string, string> = {};
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    joined[name] = name in joined ? `${joined[name]}\n${rawHeaders[i + 1]}` : rawHeaders[i + 1];
  }
  for (const [name, value] of Object.entries(joined)) headers[name] = [value];
  const cookies: Record<string, string[]> = {};
  for (const line of (joined['set-cookie'] ?? '').split('\n').filter(Boolean)) {
    const [pair] = line.split(';');
    const i = pair.indexOf('=');
    if (i > 0) cookies[pair.slice(0, i).trim().toLowerCase()] = [pair.slice(i + 1).trim()];
  }
  for (const name of Object.keys(cookies)) {
    if (/_ga_[A-Z0-9]+/.test(name)) {
      cookies['_ga_*'] = cookies[name];
      delete cookies[name];
    }
  }
  const $ = cheerio.load(body);
  const meta: Record<string, string[]> = {};
  $('meta').each((_, el) => {
    const key = $(el).attr('name') || $(el).attr('property');
    if (key) (meta[key.toLowerCase()] ??= []).push($(el).attr('content') ?? 'null');
  });
  const scriptSrc: string[] = [];
  const scripts: string[] = [];
  $('script').each((_, el) => {
    const src = $(el).attr('src');
    if (src && !src.startsWith('data:text/javascript;')) scriptSrc.push(new URL(src, finalUrl).href);
    const text = $(el).text();
    if (text) scripts.push(text);
  });
  return { url: finalUrl, headers, cookies, meta, html: rows(body), scriptSrc, scripts };
}

/** The driver's htmlMaxCols (2,000) and htmlMaxRows (3,000): first and last 1,500 rows, joined by newlines. */
function rows(html: string): string {
  const cols = 2000;
  const count = html.length / cols;
  const kept: string[] = [];
  for (let i = 0; i < count; i++) if (i < 1500 || i > count - 1500) kept.push(html.slice(i * cols, (i + 1) * cols));
  return kept.join('\n');
}

/** GET with redirects followed (loopback bench pages only), keeping the raw header lines. */
function get(url: string, hops = 0): Promise<{ finalUrl: string; rawHeaders: string[]; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        const location = res.headers.location;
        if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location && hops < 10) {
          res.resume();
          resolve(get(new URL(location, url).href, hops + 1));
          return;
        }
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ finalUrl: url, rawHeaders: res.rawHeaders, body }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}
