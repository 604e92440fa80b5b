/**
 * What survives GitHub's sanitizer in rendered Markdown, as far as links go. GitHub renders a
 * Markdown file, then keeps only allow-listed elements, attributes and URL protocols (the
 * rules html-pipeline's SanitizationFilter publishes, plus `<picture>`/`<source srcset>`,
 * which GitHub documents for theme-specific images). A URL in anything it strips (`<link>`,
 * `<script src>`, `<iframe>`, `style`, `<a href="ftp://…">`) is not on the page, so it is not
 * a link. Of what survives, only what a reader follows or the page loads is a link:
 * `a href`, `img src` and `source srcset`; `cite` and `longdesc` survive but nothing shows them.
 */

/** Elements GitHub keeps; every other element is removed (its children stay, unless it holds raw text). */
export const githubElements: ReadonlySet<string> = new Set([
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'br', 'b', 'i', 'strong', 'em', 'a', 'pre', 'code', 'img', 'tt', 'div',
  'ins', 'del', 'sup', 'sub', 'p', 'ol', 'ul', 'table', 'thead', 'tbody', 'tfoot', 'blockquote', 'dl', 'dt', 'dd',
  'kbd', 'q', 'samp', 'var', 'hr', 'ruby', 'rt', 'rp', 'li', 'tr', 'td', 'th', 's', 'strike', 'summary', 'details',
  'caption', 'figure', 'figcaption', 'abbr', 'bdo', 'cite', 'dfn', 'mark', 'small', 'span', 'time', 'wbr',
  'picture', 'source',
]);

/**
 * Elements whose content is text to the HTML parser (or removed by the sanitizer): tags written
 * inside them are not elements, so their URLs are not links.
 */
export const rawTextElements: ReadonlySet<string> = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext']);

/** URL schemes GitHub keeps per attribute; a URL without a scheme (relative) is always kept. */
const protocols = {
  href: new Set(['http', 'https', 'mailto', 'github-windows', 'github-mac', 'x-github-client']),
  src: new Set(['http', 'https']),
};

/** Sanitize's reading of a URL's protocol: what precedes the first `:` when no `/` or `#` comes before it. */
const PROTOCOL = /^\s*([^/#]*?)(?::|&#0*58|&#x0*3a)/i;

/**
 * Whether GitHub keeps a URL in this role: `href` (a link, Markdown's or `<a href>`) or `src`
 * (an image: Markdown's, `<img src>`, `<source srcset>`). A URL with another protocol loses its
 * attribute (`[x](ftp://h/)` renders as plain text).
 */
export function githubKeepsUrl(role: keyof typeof protocols, value: string): boolean {
  const m = PROTOCOL.exec(value);
  return !m || protocols[role].has(m[1].toLowerCase());
}
