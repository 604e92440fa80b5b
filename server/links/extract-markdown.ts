import type { FoundLink, LinkResource } from './types.js';

export interface MarkdownLink extends FoundLink {
  line: number;
  /** The link as written (relative links stay relative). */
  raw: string;
}

export interface ExtractedMarkdown {
  links: MarkdownLink[];
  /** GitHub heading anchors (`## Install it` → `install-it`, duplicates `-1`, `-2`). */
  anchors: Set<string>;
}

const INLINE = /(!?)\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
const REF_DEF = /^\s{0,3}\[([^\]]+)\]:\s*(<[^>]*>|\S+)/;
const AUTOLINK = /<(https?:\/\/[^>\s]+)>/g;
const BARE = /(?<![(<"'=\]])\bhttps?:\/\/[^\s<>()"'`\]]+[^\s<>()"'`\].,;:!?*_~]/g;
const HTML_ATTR = /<(a|img|source|video|audio|iframe)\b[^>]*?\s(href|src|srcset)\s*=\s*("([^"]*)"|'([^']*)')/gi;

/**
 * Links of a Markdown document with their 1-based line numbers: inline links and
 * images, reference definitions, autolinks, bare URLs and links in raw HTML. Code
 * blocks and code spans are skipped.
 */
export function extractMarkdown(text: string): ExtractedMarkdown {
  const links: MarkdownLink[] = [];
  const anchors = new Set<string>();
  const slugCount = new Map<string, number>();
  const lines = text.split(/\r?\n/);
  let fence: string | null = null;

  lines.forEach((rawLine, index) => {
    const line = index + 1;
    const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(rawLine);
    if (fence) {
      if (fenceMatch && fenceMatch[1][0] === fence[0] && fenceMatch[1].length >= fence.length) fence = null;
      return;
    }
    if (fenceMatch) {
      fence = fenceMatch[1];
      return;
    }
    if (/^( {4}|\t)/.test(rawLine) && !/^\s*([-*+]|\d+[.)])\s/.test(rawLine)) return; // indented code
    const textLine = rawLine.replace(/(`+)[^`]*?\1/g, (m) => ' '.repeat(m.length));

    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(textLine);
    if (heading) {
      const base = githubSlug(heading[1]);
      const n = slugCount.get(base) ?? 0;
      slugCount.set(base, n + 1);
      anchors.add(n ? `${base}-${n}` : base);
    }
    for (const m of textLine.matchAll(/<a\s[^>]*?(?:name|id)\s*=\s*["']([^"']+)["']/gi)) anchors.add(m[1]);

    const taken: Array<[number, number]> = [];
    const add = (raw: string, resource: LinkResource, at: number, len: number) => {
      const url = raw.replace(/^<|>$/g, '').trim();
      if (!url) return;
      taken.push([at, at + len]);
      links.push({ url, raw: url, resource, navigational: resource === 'page', line });
    };
    const ref = REF_DEF.exec(textLine);
    if (ref) add(ref[2], 'page', 0, textLine.length);
    for (const m of textLine.matchAll(INLINE)) add(m[2], m[1] ? 'image' : 'page', m.index ?? 0, m[0].length);
    for (const m of textLine.matchAll(HTML_ATTR)) {
      const value = m[4] ?? m[5] ?? '';
      const resource: LinkResource = m[1].toLowerCase() === 'a' ? 'page' : m[1].toLowerCase() === 'iframe' ? 'frame' : 'image';
      const values = m[2].toLowerCase() === 'srcset' ? value.split(',').map((c) => c.trim().split(/\s+/)[0]) : [value];
      for (const v of values) add(v, resource, m.index ?? 0, m[0].length);
    }
    for (const m of textLine.matchAll(AUTOLINK)) {
      if (!inside(taken, m.index ?? 0)) add(m[1], 'page', m.index ?? 0, m[0].length);
    }
    for (const m of textLine.matchAll(BARE)) {
      if (!inside(taken, m.index ?? 0)) add(m[0], 'page', m.index ?? 0, m[0].length);
    }
  });
  return { links, anchors };
}

const inside = (ranges: Array<[number, number]>, at: number) => ranges.some(([a, b]) => at >= a && at < b);

/** GitHub's heading anchor: lower case, punctuation dropped (except `-` and `_`), spaces to `-`. */
export function githubSlug(heading: string): string {
  return heading
    .replace(/<[^>]+>/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}
