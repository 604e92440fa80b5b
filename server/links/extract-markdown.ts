import GithubSlugger from 'github-slugger';
import type { Html, Nodes, Parents, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { scanHtml } from './extract-html.js';
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

export interface ExtractedMarkdown {
  links: MarkdownLink[];
  /** Fragments that exist in the rendered document: GitHub's heading slugs, HTML ids and `<a name>`. */
  anchors: Set<string>;
  /** Set when the document could not be parsed (nesting deeper than the stack allows); nothing is extracted then. */
  error?: string;
}

/**
 * Links of a Markdown document by a CommonMark + GFM parser (micromark), as GitHub renders
 * it: inline links and images, reference definitions (each once, where the URL is written),
 * autolinks and GFM autolink literals, and URLs in raw HTML (read by the one HTML scanner,
 * positions mapped back into the Markdown). Code and comments hold no links. Anchors are
 * heading slugs made by `github-slugger` in document order (duplicates get `-1`, `-2`),
 * plus ids and names of raw HTML.
 */
export function extractMarkdown(text: string): ExtractedMarkdown {
  let tree: Root;
  try {
    tree = fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  } catch (err) {
    // micromark recurses per level of nesting: thousands of nested quotes or lists overflow the stack.
    if (err instanceof RangeError) return { links: [], anchors: new Set(), error: 'the document is nested too deeply to read' };
    throw err;
  }
  const links: MarkdownLink[] = [];
  const anchors = new Set<string>();
  const slugger = new GithubSlugger();
  const imageRefs = new Set<string>();
  const definitions: Array<{ node: Nodes & { url: string; identifier: string } }> = [];
  const sourceLines = lazyLines(text);

  const stack: Nodes[] = [tree];
  while (stack.length) {
    const node = stack.pop() as Nodes;
    switch (node.type) {
      case 'link':
      case 'image':
        add(links, node, node.url, node.type === 'image' ? 'image' : 'page');
        break;
      case 'imageReference':
        imageRefs.add(node.identifier);
        break;
      case 'definition':
        definitions.push({ node });
        break;
      case 'heading':
        anchors.add(slugger.slug(headingText(node)));
        break;
      case 'html':
        for (const found of htmlLinks(node, sourceLines, anchors)) links.push(found);
        break;
      default:
        break;
    }
    if ('children' in node) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  for (const { node } of definitions) add(links, node, node.url, imageRefs.has(node.identifier) ? 'image' : 'page');
  links.sort((a, b) => a.line - b.line || a.column - b.column);
  return { links, anchors };
}

function add(links: MarkdownLink[], node: Nodes, url: string, resource: LinkResource) {
  const trimmed = url.trim();
  if (!trimmed || !node.position) return;
  links.push({
    url: trimmed,
    resource,
    navigational: resource === 'page',
    line: node.position.start.line,
    column: node.position.start.column,
    endLine: node.position.end.line,
  });
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

/** Links of a raw HTML node, positions mapped from its value back to the Markdown source. */
function htmlLinks(node: Html, sourceLines: () => string[], anchors: Set<string>): MarkdownLink[] {
  const start = node.position?.start;
  if (!start) return [];
  const valueLines = node.value.split(/\r\n|\r|\n/);
  // One character per line end, so offsets map to lines whatever the source's line ends.
  const text = valueLines.join('\n');
  const scanned = scanHtml(text);
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
