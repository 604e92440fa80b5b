import semver from 'semver';

/**
 * Whether a captured version is kept, by the engine's rule: at most 15 characters and not
 * a long number such as a timestamp or build id (leading integer under 10,000).
 */
export function isUsableVersion(v: string): boolean {
  return v.length > 0 && v.length <= 15 && (Number.parseInt(v, 10) || 0) < 10_000;
}

const asSemver = (v: string) => semver.parse(v, { loose: true }) ?? semver.coerce(v, { includePrerelease: true });

/**
 * Orders two versions, highest first: by semver precedence where both read as one (a
 * two-part `1.10` as `1.10.0`), then the more precise string (`6.4.0` before `6.4`),
 * then numeric-aware text order for what semver cannot read (`4.0.0.2` after `4.0.0.1`).
 */
export function compareVersionsDesc(a: string, b: string): number {
  const sa = asSemver(a);
  const sb = asSemver(b);
  if (sa && sb) {
    const c = semver.compare(sb, sa);
    if (c !== 0) return c;
  }
  return b.localeCompare(a, 'en', { numeric: true }) || b.length - a.length;
}

/**
 * The version the Wappalyzer engine reports from several sightings: the longest usable string,
 * the first found on a tie (`4.6.14` from a theme's files beside `5.15.4` from a child theme's
 * icon font, both matching the theme's rule). `versions` in the order they were found.
 */
export function engineVersion(versions: Iterable<string>): string | null {
  let kept: string | null = null;
  for (const v of versions) if (isUsableVersion(v) && v.length > (kept?.length ?? 0)) kept = v;
  return kept;
}

/**
 * The distinct usable versions, highest first. A version that another one extends
 * (`6.4` beside `6.4.2`, from a generator tag and a script URL) is the same release seen
 * less precisely, not a second version, and is left out.
 */
export function orderVersions(versions: Iterable<string>): string[] {
  const usable = [...new Set(versions)].filter(isUsableVersion);
  return usable.filter((v) => !usable.some((w) => w !== v && w.startsWith(`${v}.`))).sort(compareVersionsDesc);
}
