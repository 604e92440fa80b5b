import GithubSlugger from 'github-slugger';
import type { Definition, Html, Nodes, Parents, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { scanHtml, type GithubMarkdownHtml } from './extract-html.js';
import { githubKeepsUrl } from './github-sanitize.js';
import { positionIndex } from './text-position.js';
import type { LinkResource } from './types.js';

/** One link of a Markdown document, as written, with where it is. */
export interface MarkdownLink {
  /** The destination as written, after CommonMark's escapes and entities (relative stays relative). */
  url: string;
  resource: LinkResource;
  navigational: boolean;
  /** 1-based line and column where the construct starts; `endLine` where it ends. */
  line: number;
  column: number;
  endLine: number;
}

/** A reference definition that renders nothing: no reference uses its label, or an earlier definition has it. */
export interface UnusedDefinition extends MarkdownLink {
  /** The label as written. */
  label: string;
  /** An earlier definition of the same label is the one used. */
  duplicate: boolean;
}

export interface ExtractedMarkdown {
  links: MarkdownLink[];
  /** Reference definitions that are not links on the rendered page. */
  unusedDefinitions: UnusedDefinition[];
  /** Fragments that exist in the rendered document: GitHub's heading slugs, HTML ids and `<a name>`. */
  anchors: Set<string>;
  /** Set when the document could not be parsed (nesting deeper than the stack allows); nothing is extracted then. */
  error?: string;
}

/**
 * Links of a Markdown document by a CommonMark + GFM parser (micromark), exactly those GitHub
 * renders: inline links and images, autolinks and GFM autolink literals, reference
 * definitions that a reference uses (CommonMark: labels match after case folding and
 * whitespace collapsing, the first definition of a label wins; each reported once, where its
 * URL is written), and URLs in raw HTML (read by the one HTML scanner, positions mapped back
 * into the Markdown). What GitHub's sanitizer strips is not a link: elements and attributes
 * off its allow-list, URLs with other protocols (`github-sanitize.ts`). Code and comments
 * hold no links. Anchors are heading slugs made by `github-slugger` in document order
 * (duplicates get `-1`, `-2`), plus ids and `<a name>` of raw HTML.
 */
export function extractMarkdown(text: string): ExtractedMarkdown {
  let tree: Root;
  try {
    tree = fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  } catch (err) {
    // micromark recurses per level of nesting: thousands of nested quotes or lists overflow the stack.
    if (err instanceof RangeError) return { links: [], unusedDefinitions: [], anchors: new Set(), error: 'the document is nested too deeply to read' };
    throw err;
  }
  const links: MarkdownLink[] = [];
  const anchors = new Set<string>();
  const slugger = new GithubSlugger();
  // micromark makes a reference node only for a label some definition has (mdast's `identifier`: the normalised label).
  const used = new Map<string, LinkResource>();
  const definitions: Definition[] = [];
  const sourceLines = lazyLines(text);
  const html: GithubMarkdownHtml = {};

  const stack: Nodes[] = [tree];
  while (stack.length) {
    const node = stack.pop() as Nodes;
    switch (node.type) {
      case 'link':
      case 'image':
        // Inside an element whose content is raw text (`<script>` … `</script>` around inline Markdown), nothing is rendered.
        if (!html.rawText) add(links, node, node.url, node.type === 'image' ? 'image' : 'page');
        break;
      case 'linkReference':
        if (!html.rawText && !used.has(node.identifier)) used.set(node.identifier, 'page');
        break;
      case 'imageReference':
        if (!html.rawText) used.set(node.identifier, 'image');
        break;
      case 'definition':
        definitions.push(node);
        break;
      case 'heading':
        anchors.add(slugger.slug(headingText(node)));
        break;
      case 'html':
        for (const found of htmlLinks(node, sourceLines, anchors, html)) links.push(found);
        break;
      default:
        break;
    }
    if ('children' in node) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  const unusedDefinitions: UnusedDefinition[] = [];
  const defined = new Set<string>();
  for (const node of definitions) {
    const resource = used.get(node.identifier);
    const duplicate = defined.has(node.identifier);
    defined.add(node.identifier);
    if (resource && !duplicate) add(links, node, node.url, resource);
    else {
      const place = placeOf(node, node.url);
      if (place) unusedDefinitions.push({ ...place, resource: 'page', navigational: true, label: node.label ?? node.identifier, duplicate });
    }
  }
  links.sort((a, b) => a.line - b.line || a.column - b.column);
  return { links, unusedDefinitions, anchors };
}

function add(links: MarkdownLink[], node: Nodes, url: string, resource: LinkResource) {
  if (!githubKeepsUrl(resource === 'image' ? 'src' : 'href', url)) return;
  const place = placeOf(node, url);
  if (place) links.push({ ...place, resource, navigational: resource === 'page' });
}

function placeOf(node: Nodes, url: string): Pick<MarkdownLink, 'url' | 'line' | 'column' | 'endLine'> | null {
  const trimmed = url.trim();
  if (!trimmed || !node.position) return null;
  return { url: trimmed, line: node.position.start.line, column: node.position.start.column, endLine: node.position.end.line };
}

/**
 * The heading's text as GitHub slugs it: the rendered text content, so inline code counts
 * by its text, emphasis and links by their text, while images and raw HTML tags add nothing.
 */
function headingText(node: Parents): string {
  let out = '';
  const stack: Nodes[] = [...node.children].reverse();
  while (stack.length) {
    const n = stack.pop() as Nodes;
    if (n.type === 'text' || n.type === 'inlineCode') out += n.value;
    else if (n.type !== 'image' && n.type !== 'imageReference' && n.type !== 'html' && 'children' in n) {
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
    }
  }
  return out;
}

/** Links of a raw HTML node as GitHub keeps them, positions mapped from its value back to the Markdown source. */
function htmlLinks(node: Html, sourceLines: () => string[], anchors: Set<string>, state: GithubMarkdownHtml): MarkdownLink[] {
  const start = node.position?.start;
  if (!start) return [];
  const valueLines = node.value.split(/\r\n|\r|\n/);
  // One character per line end, so offsets map to lines whatever the source's line ends.
  const text = valueLines.join('\n');
  const scanned = scanHtml(text, state);
  for (const a of scanned.anchors) anchors.add(a);
  if (!scanned.references.length) return [];
  const at = positionIndex(text);
  const place = (valueOffset: number) => {
    const { line: l, column: c } = at(valueOffset);
    const line = start.line + l - 1;
    if (l === 1) return { line, column: start.column + c - 1 };
    // Container prefixes (`> `, list indentation) are not in the value: the value's line is the end of the source line.
    const source = sourceLines()[line - 1] ?? '';
    const prefix = source.endsWith(valueLines[l - 1]) ? source.length - valueLines[l - 1].length : 0;
    return { line, column: prefix + c };
  };
  return scanned.references.map((r) => {
    const from = place(r.start);
    return { url: r.value, resource: r.resource, navigational: r.navigational, line: from.line, column: from.column, endLine: place(Math.max(r.start, r.end - 1)).line };
  });
}

function lazyLines(text: string): () => string[] {
  let lines: string[] | undefined;
  return () => (lines ??= text.split(/\r\n|\r|\n/));
}
