/**
 * What may stand right before a link's URL and right after it: the syntax around a link
 * (Markdown's `(`, `<`, `[`, HTML's quotes, a space) or, after it, its `#fragment` or sentence
 * punctuation. Anything else means the match is part of a longer URL (`…/page` in
 * `…/page2`, or a link quoted inside an archive address), not the link itself.
 */
const before = /[\s(<[{"'`|*_]/;
const after = /[\s)>\]}"'`|*_#]/;
/** Sentence punctuation after a bare URL, which GitHub's autolinks leave out of the link. */
const trailingPunctuation = /^[.,;:!?]+(?:[\s)>\]*_]|$)/;

/** Where a fragment written after a URL ends: at a space or the syntax around a link. */
const fragmentEnd = /[\s)"'<>\]`]/;

export type LineFix = { kind: 'ok'; line: string } | { kind: 'skipped'; why: 'not_verbatim' | 'ambiguous' | 'unchanged' };

/**
 * The line with the link `url` replaced by `replacement`, and nothing else changed, or why
 * that cannot be done safely: the URL must be written verbatim exactly once as a whole URL
 * (not inside a longer one). A `#fragment` written after it on the line is kept, as the
 * reader's target inside the page, in place of any fragment `replacement` has.
 */
export function suggestedLine(line: string, url: string, replacement: string): LineFix {
  const hits: Array<{ start: number; end: number }> = [];
  for (let at = line.indexOf(url); at >= 0; at = line.indexOf(url, at + 1)) {
    const end = at + url.length;
    if (at > 0 && !before.test(line[at - 1])) continue;
    if (end < line.length && !after.test(line[end]) && !trailingPunctuation.test(line.slice(end))) continue;
    hits.push({ start: at, end });
  }
  if (hits.length === 0) return { kind: 'skipped', why: 'not_verbatim' };
  if (hits.length > 1) return { kind: 'skipped', why: 'ambiguous' };
  const [{ start, end }] = hits;
  let fragmentStop = end;
  if (!url.includes('#') && line[end] === '#') {
    while (fragmentStop < line.length && !fragmentEnd.test(line[fragmentStop])) fragmentStop++;
  }
  // The place's own fragment (or none) wins over the one the API's item carries for all its places.
  const target = url.includes('#') ? replacement : replacement.replace(/#.*$/, '') + line.slice(end, fragmentStop);
  const fixed = line.slice(0, start) + target + line.slice(fragmentStop);
  return fixed === line ? { kind: 'skipped', why: 'unchanged' } : { kind: 'ok', line: fixed };
}

/** A fence for a suggestion block that the line's own backticks cannot close. */
export function suggestionBlock(line: string): string {
  const longest = Math.max(0, ...[...line.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}suggestion\n${line}\n${fence}`;
}
