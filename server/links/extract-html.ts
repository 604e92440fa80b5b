import { Parser } from 'htmlparser2';
import { scanCss } from './extract-css.js';
import { parseRefresh } from './meta-refresh.js';
import { resolveIn } from './resolve-url.js';
import { githubElements, githubKeepsUrl, rawTextElements } from './github-sanitize.js';
import { srcsetUrls } from './srcset.js';
import { positionIndex } from './text-position.js';
import type { FoundLink, LinkResource } from './types.js';

/** A URL as written in HTML, before resolution: where it is and what it points at. */
export interface HtmlReference {
  /** The value as written (entities decoded, surrounding whitespace removed). */
  value: string;
  resource: LinkResource;
  /** True for links a crawler may follow to another page (a, area, iframe, meta refresh). */
  navigational: boolean;
  /** 0-based offsets of the construct holding it: the start tag, or `url(…)` in a `<style>`. */
  start: number;
  end: number;
}

export interface ScannedHtml {
  references: HtmlReference[];
  /** Element ids and `<a name>` values, for fragment checks. */
  anchors: Set<string>;
  /** The first `<base href>` as written. */
  baseHref?: string;
  /** `<meta http-equiv=refresh>` with a URL: the browser navigates there. */
  refresh?: HtmlReference;
}

/** Tag → attributes holding one URL: [attribute, what it points at, followed by a crawler]. */
const urlAttributes: Record<string, Array<[attr: string, resource: LinkResource, navigational: boolean]>> = {
  a: [['href', 'page', true]],
  area: [['href', 'page', true]],
  iframe: [['src', 'frame', true], ['longdesc', 'page', false]],
  frame: [['src', 'frame', true], ['longdesc', 'page', false]],
  img: [['src', 'image', false], ['longdesc', 'page', false]],
  input: [['src', 'image', false]],
  script: [['src', 'script', false]],
  source: [['src', 'media', false]],
  video: [['src', 'media', false], ['poster', 'image', false]],
  audio: [['src', 'media', false]],
  track: [['src', 'media', false]],
  embed: [['src', 'media', false]],
  object: [['data', 'media', false]],
  body: [['background', 'image', false]],
  table: [['background', 'image', false]],
  td: [['background', 'image', false]],
  blockquote: [['cite', 'page', false]],
  q: [['cite', 'page', false]],
  ins: [['cite', 'page', false]],
  del: [['cite', 'page', false]],
};

/** `link rel` values whose href is fetched by browsers (others, like `canonical`, are still checked as pages). */
const linkResource = (rel: string): LinkResource => {
  const r = rel.toLowerCase();
  if (r.includes('stylesheet')) return 'stylesheet';
  if (r.includes('icon') || r.includes('apple-touch')) return 'image';
  if (r.includes('preload') || r.includes('modulepreload') || r.includes('prefetch')) return 'other';
  return 'page';
};

const SKIPPED_LINK_RELS = /\b(dns-prefetch|preconnect)\b/i;

/**
 * Raw HTML of a Markdown document as GitHub shows it: only what its sanitizer keeps
 * (`github-sanitize.ts`). The fragments of one document are scanned in order with one state,
 * since an element holding raw text (`<script>`, `<textarea>`) may open in one fragment and
 * close in a later one.
 */
export interface GithubMarkdownHtml {
  /** The raw-text element left open by the fragments scanned so far. */
  rawText?: string;
}

/**
 * Every URL an HTML document (or fragment) holds, with its place in the source, by a
 * streaming parse (htmlparser2 callbacks, no DOM: the crawler parses every page, and a
 * tree cost more than fetching a small page on loopback). Comments are not content, so
 * links inside them are not found. `srcset` and `imagesrcset` by the HTML spec's
 * algorithm; CSS in `<style>` and `style=""` by the CSS tokenizer. With `github`, raw HTML
 * of a Markdown document: only the links GitHub's sanitizer leaves on the rendered page.
 */
export function scanHtml(html: string, github?: GithubMarkdownHtml): ScannedHtml {
  if (github) return scanGithubHtml(html, github);
  const references: HtmlReference[] = [];
  const anchors = new Set<string>();
  const styles: Array<{ text: string; start: number }> = [];
  let baseHref: string | undefined;
  let refresh: HtmlReference | undefined;
  let inStyle = false;

  const parser: Parser = new Parser(
    {
      onopentag(tag, a) {
        const start = parser.startIndex;
        const end = parser.endIndex + 1;
        const add = (value: string | undefined, resource: LinkResource, navigational: boolean) => {
          const v = value?.trim();
          if (v) references.push({ value: v, resource, navigational, start, end });
        };
        if (a.id) anchors.add(a.id);
        if (tag === 'a' && a.name) anchors.add(a.name);
        for (const [attr, resource, nav] of urlAttributes[tag] ?? []) {
          if (tag === 'input' && (a.type ?? '').toLowerCase() !== 'image') continue;
          add(a[attr], resource, nav);
        }
        if (a.srcset !== undefined && (tag === 'img' || tag === 'source')) for (const url of srcsetUrls(a.srcset)) add(url, 'image', false);
        if (tag === 'link' && !SKIPPED_LINK_RELS.test(a.rel ?? '')) {
          add(a.href, linkResource(a.rel ?? ''), false);
          if (a.imagesrcset !== undefined) for (const url of srcsetUrls(a.imagesrcset)) add(url, 'image', false);
        }
        if (tag === 'meta' && (a['http-equiv'] ?? '').toLowerCase() === 'refresh') {
          const target = parseRefresh(a.content ?? '')?.url;
          if (target) {
            add(target, 'page', true);
            refresh ??= references[references.length - 1];
          }
        }
        if (tag === 'base' && a.href !== undefined && baseHref === undefined) baseHref = a.href;
        if (a.style) {
          for (const ref of scanCss(a.style)) add(ref.value, cssResource(ref.kind), false);
        }
        if (tag === 'style') inStyle = true;
      },
      ontext(text) {
        if (!inStyle) return;
        const last = styles[styles.length - 1];
        if (last && last.start + last.text.length === parser.startIndex) last.text += text;
        else styles.push({ text, start: parser.startIndex });
      },
      onclosetag(tag) {
        if (tag === 'style') inStyle = false;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);

  for (const style of styles) {
    for (const ref of scanCss(style.text)) {
      if (ref.value.trim()) references.push({ value: ref.value.trim(), resource: cssResource(ref.kind), navigational: false, start: style.start + ref.start, end: style.start + ref.end });
    }
  }
  references.sort((a, b) => a.start - b.start); // document order (style sheets were read last)
  return { references, anchors, baseHref, refresh };
}

function scanGithubHtml(html: string, state: GithubMarkdownHtml): ScannedHtml {
  const references: HtmlReference[] = [];
  const anchors = new Set<string>();
  const text = skipOpenRawText(html, state);
  if (text === null) return { references, anchors };
  const parser: Parser = new Parser(
    {
      onopentag(tag, a) {
        if (state.rawText) return;
        if (rawTextElements.has(tag)) {
          state.rawText = tag;
          return;
        }
        if (!githubElements.has(tag)) return;
        const start = parser.startIndex;
        const end = parser.endIndex + 1;
        const add = (value: string | undefined, resource: LinkResource, role: 'href' | 'src') => {
          const v = value?.trim();
          if (v && githubKeepsUrl(role, v)) references.push({ value: v, resource, navigational: resource === 'page', start, end });
        };
        if (a.id) anchors.add(a.id);
        if (tag === 'a') {
          if (a.name) anchors.add(a.name);
          add(a.href, 'page', 'href');
        }
        if (tag === 'img') add(a.src, 'image', 'src');
        if (tag === 'source' && a.srcset !== undefined) for (const url of srcsetUrls(a.srcset)) add(url, 'image', 'src');
      },
      onclosetag(tag, implied) {
        // A fragment's end closes what it left open only in the parser's view, not in the document's.
        if (!implied && tag === state.rawText) state.rawText = undefined;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(text);
  return { references, anchors };
}

/**
 * The fragment with what still belongs to a raw-text element opened earlier blanked out
 * (line ends kept, so offsets stay); null when the element does not close in it.
 */
function skipOpenRawText(html: string, state: GithubMarkdownHtml): string | null {
  if (!state.rawText) return html;
  const close = new RegExp(`</${state.rawText}(?=[\\s/>]|$)`, 'i').exec(html);
  if (!close) return null;
  state.rawText = undefined;
  const end = html.indexOf('>', close.index) + 1 || html.length;
  return html.slice(0, end).replace(/[^\r\n]/g, ' ') + html.slice(end);
}

export interface ExtractedPage {
  links: FoundLink[];
  anchors: Set<string>;
  /** Where a `<meta http-equiv=refresh>` sends the browser (absolute). */
  refresh?: string;
}

/**
 * Every link and resource of a fetched page, resolved per the URL standard against the
 * first `<base href>` (itself resolved against `pageUrl`), with line and column. The query
 * of a relative URL is encoded in the page's `encoding`, as a browser does. Values that do
 * not parse as URLs are kept as written (reported as invalid).
 */
export function extractHtml(html: string, pageUrl: string, encoding = 'utf-8'): ExtractedPage {
  const scanned = scanHtml(html);
  const at = positionIndex(html);
  let base = pageUrl;
  if (scanned.baseHref?.trim()) base = resolveIn(scanned.baseHref.trim(), pageUrl, encoding) ?? pageUrl; // an unparsable <base> is ignored by browsers too
  const links: FoundLink[] = scanned.references.map((r) => {
    const url = resolveIn(r.value, base, encoding);
    const { line, column } = at(r.start);
    return url
      ? { url, resource: r.resource, navigational: r.navigational, line, column }
      : { url: r.value, resource: r.resource, navigational: false, line, column };
  });
  const refresh = scanned.refresh ? (resolveIn(scanned.refresh.value, base, encoding) ?? undefined) : undefined;
  return { links, anchors: scanned.anchors, refresh };
}

const cssResource = (kind: 'import' | 'font' | 'resource'): LinkResource => (kind === 'import' ? 'stylesheet' : kind === 'font' ? 'other' : 'image');
