/**
 * Text made safe for GitHub-flavoured Markdown, whatever a link or file name holds. Pure
 * string functions: the API (format=markdown) and the actions' bundles share them.
 */

/** Longest URL shown in full; longer ones keep their start and end around an ellipsis. */
export const defaultUrlDisplay = 80;

/** Control characters (line breaks, tabs, NUL…) would end a table row or a heading. */
const flatten = (s: string) => s.replace(/[\u0000-\u001f\u007f]+/g, ' ');

/**
 * Inline text: every character GitHub could read as syntax is backslash-escaped
 * (CommonMark lets any ASCII punctuation be escaped). Covers emphasis, links and images
 * (`[` `]` `!`), HTML (`<` `>` `&`), table cells (`|`), code (`` ` ``), strikethrough (`~`),
 * math (`$`), @mentions and #references, so a URL or path can never ping anyone or break
 * out of its cell.
 */
export const text = (s: string) => flatten(s).replace(/[\\`*_[\]<>|~&@#!$]/g, '\\$&');

/** Text inside an HTML element such as `<summary>` (Markdown is not parsed there). */
export const htmlText = (s: string) => flatten(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A code span that holds any string: the fence is one backtick longer than the longest
 * run inside, padded when the content starts or ends with a backtick. In a table cell
 * pipes are escaped too (GFM splits cells before it parses code spans).
 */
export function code(s: string, where: 'text' | 'cell' = 'cell'): string {
  let body = flatten(s) || ' ';
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  if (body.startsWith('`') || body.endsWith('`') || (body.startsWith(' ') && body.endsWith(' ') && body.trim())) body = ` ${body} `;
  const span = `${fence}${body}${fence}`;
  return where === 'cell' ? span.replace(/\|/g, '\\|') : span;
}

/** `https://host/very/long/…/end`: the first and last parts of a long URL, for display only. */
export function shorten(s: string, max = defaultUrlDisplay): string {
  const chars = [...s];
  if (chars.length <= max) return s;
  const head = Math.ceil((max - 1) * 0.6);
  const tail = max - 1 - head;
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - tail).join('')}`;
}

const utf8 = new TextEncoder();

/**
 * A link destination that stays one token: whitespace, parentheses, angle brackets,
 * pipes, backticks, quotes and backslashes percent-encoded (as UTF-8). Other characters,
 * and existing `%XX` escapes, are left as they are.
 */
export const href = (url: string) =>
  url.replace(/[\s()<>|`"'\\{}^\u0000-\u001f\u007f]/gu, (c) =>
    [...utf8.encode(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );

const isWebUrl = (s: string) => /^https?:\/\/[^\s/]/i.test(s);

/**
 * An http(s) URL as a link whose label is the (shortened) URL; anything else (a relative
 * path, a `mailto:`) as code, since GitHub would resolve it against the comment's page.
 * `label` shortens it (`urlLabels` keeps apart URLs of one report that would read the same).
 */
export function urlLink(url: string, max = defaultUrlDisplay, label: (url: string) => string = (u) => shorten(u, max)): string {
  if (!isWebUrl(url)) return code(label(url));
  // An autolink shows the URL itself at half the length, when nothing in it needs care.
  if ([...url].length <= max && href(url) === url && !/[[\]*_~&@$!]/.test(url)) return `<${url}>`;
  return `[${text(label(url))}](${href(url)})`;
}

/** A link with a label of one's choosing; the label is escaped, the target encoded. */
export const link = (label: string, url: string) => `[${text(label)}](${href(url)})`;
