import { request, type Dispatcher } from 'undici';

/** The nearest archived copy of a URL. */
export interface Snapshot {
  url: string;
  /** ISO 8601 time the snapshot was taken. */
  archivedAt: string;
}

/** Finds archived copies of broken links; a failure of the archive is "no copy", never an error of the check. */
export interface ArchiveLookup {
  closest(url: string, signal: AbortSignal): Promise<Snapshot | null>;
}

export interface WaybackOptions {
  /** The availability API's base (`ARCHIVE_API_URL`); empty: no lookups at all. */
  baseUrl: string;
  /** The service's outbound dispatcher (the archive is the operator's choice, but its address is still checked like any other). */
  dispatcher: Dispatcher;
  /** Longest wait for one answer, in ms. */
  timeoutMs: number;
}

interface Availability {
  archived_snapshots?: { closest?: { available?: boolean; url?: string; timestamp?: string; status?: string } };
}

/** `20130919044612` → `2013-09-19T04:46:12Z`; null for anything else. */
export function waybackTimestampToIso(ts: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(ts);
  if (!m) return null;
  const iso = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`;
  return Number.isNaN(Date.parse(iso)) ? null : iso;
}

/**
 * The Wayback Machine's availability API (`GET {base}/wayback/available?url=…`): its closest
 * snapshot that answered 2xx. undefined when the operator turned the archive off.
 */
export function waybackLookup(opts: WaybackOptions): ArchiveLookup | undefined {
  if (!opts.baseUrl) return undefined;
  const endpoint = `${opts.baseUrl.replace(/\/+$/, '')}/wayback/available`;
  return {
    async closest(url, signal) {
      try {
        const res = await request(`${endpoint}?url=${encodeURIComponent(url)}`, {
          dispatcher: opts.dispatcher,
          signal: AbortSignal.any([signal, AbortSignal.timeout(opts.timeoutMs)]),
          headers: { accept: 'application/json', 'user-agent': 'SiteLens link checker (fix suggestions)' },
        });
        if (res.statusCode !== 200) {
          await res.body.dump();
          return null;
        }
        const closest = ((await res.body.json()) as Availability)?.archived_snapshots?.closest;
        if (!closest?.available || !closest.url || !closest.timestamp) return null;
        if (closest.status && !closest.status.startsWith('2')) return null;
        const archivedAt = waybackTimestampToIso(closest.timestamp);
        const snapshot = new URL(closest.url);
        if (!archivedAt || (snapshot.protocol !== 'http:' && snapshot.protocol !== 'https:')) return null;
        // The API names its snapshots with http://web.archive.org; the site serves them over https.
        if (snapshot.hostname === 'web.archive.org') snapshot.protocol = 'https:';
        return { url: snapshot.href, archivedAt };
      } catch {
        return null; // an archive that fails, times out or answers garbage gives no suggestion; the report stands
      }
    },
  };
}
