import { decodeBody } from './decode-body.js';
import type { DocumentInput } from './document-input.js';
import { scanHtml } from './extract-html.js';
import { extractMarkdown, type MarkdownLink, type UnusedDefinition } from './extract-markdown.js';
import { extractText } from './extract-text.js';
import type { LinkLedger } from './link-ledger.js';
import { decodeTextFile } from './text-encoding.js';
import { positionIndex } from './text-position.js';

export type DocumentKind = 'markdown' | 'html' | 'text';

/** A document's links (as written, with line, column and the last line) and the fragments it defines. */
export interface ExtractedDocument {
  path: string;
  kind: DocumentKind;
  links: MarkdownLink[];
  anchors: string[];
  /** Markdown: reference definitions that render nothing (no reference uses them, or an earlier one has the label). */
  unusedDefinitions?: UnusedDefinition[];
  /** HTML: the first `<base href>` as written. */
  baseHref?: string;
  /** Why the document could not be read (its links are then unknown). */
  error?: string;
  /** Binary content (as GitHub judges it, or text in no encoding it could name): not read, counted as skipped. */
  binary?: true;
}

const MARKDOWN = /\.(md|markdown|mdown|mkd|mkdn|mdx)$/i;
const HTML = /\.(html?|xhtml)$/i;

/** By extension: Markdown (`.md`, `.markdown`, `.mdown`, `.mkd`, `.mkdn`, `.mdx`), HTML (`.html`, `.htm`, `.xhtml`), else text. */
export function documentKind(path: string): DocumentKind {
  if (MARKDOWN.test(path)) return 'markdown';
  if (HTML.test(path)) return 'html';
  return 'text';
}

/** Extracts one document with the one Markdown, the one HTML or the plain-text extractor. */
export function extractDocument(doc: DocumentInput): ExtractedDocument {
  const kind = documentKind(doc.path);
  const text = documentText(doc, kind);
  if (text === null) return { path: doc.path, kind, links: [], anchors: [], binary: true };
  if (kind === 'markdown') {
    const md = extractMarkdown(text);
    return { path: doc.path, kind, links: md.links, anchors: [...md.anchors], unusedDefinitions: md.unusedDefinitions, ...(md.error ? { error: md.error } : {}) };
  }
  if (kind === 'text') return { path: doc.path, kind, links: extractText(text), anchors: [] };
  const scanned = scanHtml(text);
  const at = positionIndex(text);
  const links = scanned.references.map((r) => {
    const start = at(r.start);
    return { url: r.value, resource: r.resource, navigational: r.navigational, line: start.line, column: start.column, endLine: at(Math.max(r.start, r.end - 1)).line };
  });
  return { path: doc.path, kind, links, anchors: [...scanned.anchors], baseHref: scanned.baseHref };
}

/**
 * The document's text, or null when its content is binary. Bytes (`base64`) are read as GitHub
 * reads a file (`text-encoding.ts`: charlock_holmes's binary test, UTF-8, else the detected
 * encoding), so a Latin-1 Markdown file is read, not skipped; HTML as a browser decodes a file
 * (BOM, `<meta charset>`, else windows-1252). Text with a NUL or a lone surrogate is not text.
 */
function documentText(doc: DocumentInput, kind: DocumentKind): string | null {
  let text: string;
  if (doc.encoding === 'base64') {
    const bytes = Buffer.from(doc.content, 'base64');
    if (kind === 'html') text = decodeBody(bytes, undefined, 'html').text;
    else {
      const decoded = decodeTextFile(bytes);
      if (!decoded) return null;
      text = decoded.text;
    }
  } else {
    text = doc.content;
    if (LONE_SURROGATE.test(text)) return null;
  }
  return text.includes('\0') ? null : text;
}

/** In a `u` regex a surrogate pair is one code point, so only a lone surrogate is in `\p{Cs}`. */
const LONE_SURROGATE = /\p{Cs}/u;

/** The documents through the caller's extractor (worker threads in the service), or inline. */
export function readDocuments(documents: DocumentInput[], deps: { extract?: ExtractDocuments }, onEach?: (doc: ExtractedDocument) => void): Promise<ExtractedDocument[]> {
  if (deps.extract) return deps.extract(documents, onEach);
  return Promise.resolve(
    documents.map((d) => {
      const doc = extractDocument(d);
      onEach?.(doc);
      return doc;
    }),
  );
}

/** Reads documents (off the event loop in the service); `onEach` hears of each as soon as it is read, in any order. */
export type ExtractDocuments = (documents: DocumentInput[], onEach?: (doc: ExtractedDocument) => void) => Promise<ExtractedDocument[]>;

/** A document that could not be read is a broken item of its own: its links are unknown, so the run cannot pass silently. */
export function recordUnreadable(ledger: LinkLedger, path: string, error: string): void {
  const entry = ledger.addAs({ key: `unreadable:${path}`, url: path, scope: 'internal', fragment: '' }, 'page', { page: path, file: path, line: 1, column: 1 });
  if (!entry) return;
  ledger.claim(entry.url);
  ledger.record(entry, { url: path, status: null, kind: 'unreadable', redirect_chain: [], final_url: path, error });
}
