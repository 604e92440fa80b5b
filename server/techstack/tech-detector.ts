import { loadFingerprintDb, type FingerprintDb } from './fingerprint-db.js';
import type { PageSignals } from './page-signals.js';
import { matchSignals, type Evidence } from './signal-matcher.js';
import { resolveStack } from './stack-resolver.js';
import { engineVersion, orderVersions } from './version-order.js';

export interface DetectedTechnology {
  name: string;
  /** The longest version string seen, the first found on a tie (the engine's rule); null when no pattern named one. */
  version: string | null;
  /** Every distinct version seen on the page, highest first (two jQuery builds: both). */
  versions: string[];
  /** 0–100: the sum of the matched patterns' confidence, or what an implication carried. */
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

/**
 * Loads the fingerprint set from `dataDir` once, lazily, so boot stays fast and a missing
 * file fails only this API. The directory is the service's `FINGERPRINTS_DIR`.
 */
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

export function detectTechnologies(db: FingerprintDb, signals: PageSignals): Detection {
  const resolved = resolveStack(db, matchSignals(db, signals));
  const catPriority = (name: string) => Math.min(9, ...(db.technologies.get(name)?.categories ?? []).map((id) => db.categories.get(id)?.priority ?? 9));
  const names = [...resolved.keys()].sort((a, b) => catPriority(a) - catPriority(b) || a.localeCompare(b));
  const list: DetectedTechnology[] = [];
  const byCategory: Record<string, DetectedTechnology[]> = {};
  for (const name of names) {
    const r = resolved.get(name);
    const t = db.technologies.get(name);
    if (!r || !t) continue;
    // `version` as the engine whose rules these are picks it; every version seen, highest first, beside it.
    const versions = orderVersions(r.versions);
    const categories = t.categories.map((id) => db.categories.get(id)?.name ?? `Category ${id}`);
    const tech: DetectedTechnology = {
      name,
      version: engineVersion(r.versions),
      versions,
      confidence: r.confidence,
      categories,
      website: t.website ?? null,
      evidence: r.evidence,
    };
    list.push(tech);
    for (const c of categories.length ? categories : ['Other']) (byCategory[c] ??= []).push(tech);
  }
  return { byCategory, list };
}
