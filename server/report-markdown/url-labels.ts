import { defaultUrlDisplay, shorten } from './escape.js';

/** A URL's label in one report: the URL itself, or a shortened form of it. */
export type UrlLabels = (url: string) => string;

/**
 * Labels for URLs shown together, each at most `max` characters. A long URL keeps its start
 * and end (`shorten`), unless another one of the set would read the same that way
 * (`…/archive/…/entry-17-with-a-slug…` and `…/entry-18-…` sharing start and end): then the
 * group's labels keep the part where they differ, between their origin and their end.
 */
export function urlLabels(urls: Iterable<string>, max = defaultUrlDisplay): UrlLabels {
  const labels = new Map<string, string>();
  const byLabel = new Map<string, string[]>();
  for (const url of new Set(urls)) {
    const label = shorten(url, max);
    labels.set(url, label);
    byLabel.set(label, [...(byLabel.get(label) ?? []), url]);
  }
  for (const group of byLabel.values()) {
    if (group.length < 2) continue;
    const chars = group.map((u) => [...u]);
    const prefix = commonPrefix(chars);
    const suffix = commonSuffix(chars, prefix);
    for (const [i, url] of group.entries()) labels.set(url, around(chars[i], prefix, chars[i].length - suffix, max));
  }
  return (url) => labels.get(url) ?? shorten(url, max);
}

/**
 * `chars` in `max` characters showing [from, to), the part that differs: the origin (up to a
 * third of the room), the differing part with what room is left around it, and the last few
 * characters; an ellipsis wherever something is left out.
 */
function around(chars: string[], from: number, to: number, max: number): string {
  if (chars.length <= max) return chars.join('');
  const origin = chars.join('').match(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i)?.[0].length ?? 0;
  const head = Math.min(origin, Math.floor(max / 3));
  const tail = Math.min(Math.floor(max / 8), chars.length - to);
  const room = max - head - tail - 2; // two ellipses at most
  // Centre the differing part in the room; a longer one shows its beginning.
  const start = Math.max(head, Math.min(from - Math.max(0, Math.floor((room - (to - from)) / 2)), chars.length - tail - room));
  const end = Math.min(chars.length - tail, start + room);
  const left = start > head ? '…' : '';
  const right = end < chars.length - tail ? '…' : '';
  return chars.slice(0, head).join('') + left + chars.slice(start, end).join('') + right + chars.slice(chars.length - tail).join('');
}

function commonPrefix(all: string[][]): number {
  let n = 0;
  while (all.every((c) => n < c.length && c[n] === all[0][n])) n++;
  return n;
}

/** The shared end, never overlapping the shared start. */
function commonSuffix(all: string[][], prefix: number): number {
  const shortest = Math.min(...all.map((c) => c.length));
  let n = 0;
  while (n < shortest - prefix && all.every((c) => c[c.length - 1 - n] === all[0][all[0].length - 1 - n])) n++;
  return n;
}
