import { expect } from 'chai';
import fc from 'fast-check';
import { scanCss } from '../../server/links/extract-css.js';
import { extractDocument } from '../../server/links/extract-document.js';
import { extractHtml } from '../../server/links/extract-html.js';
import { extractMarkdown } from '../../server/links/extract-markdown.js';
import { extractText } from '../../server/links/extract-text.js';
import { parseRefresh } from '../../server/links/meta-refresh.js';
import { resolveInRepository } from '../../server/links/repository-links.js';
import { resolveIn } from '../../server/links/resolve-url.js';

/** Pieces that real documents are made of, so generated text hits the parsers' interesting paths. */
const markdownPieces = [
  '[', ']', '(', ')', '<', '>', '!', '#', '`', '```', '~~~', '    ', '\t', '\n', '\r\n', '\r', '> ', '- ', '1. ', '*', '_', '\\', '&amp;', '&#x20;',
  '[a](b.md)', '![i](i.png)', '[r]: /x', '[r]', '<https://x.test/a>', 'www.x.test', 'https://y.test/(p)', '<!--', '-->', '<a href="z">', '</a>',
  '<img srcset="a 1x, b,c 2x">', '<style>', '</style>', 'url(', '%E0%A4%A', '%', '#heading', '===', '---', '|', '^', '[^1]', '\u0000', '\uFFFD', '😄', 'é',
];
const htmlPieces = [
  '<', '>', '/', '="', '"', "'", '=', ' ', '\n', '<a href="', '<img src="', '<img srcset="', ', ', ' 2x', '<base href="', '<meta http-equiv=refresh content="',
  '<style>', '</style>', '<!--', '-->', '<![CDATA[', ']]>', '<script>', '</script>', 'url(', ')', '@import "', 'data:a,b', '&amp;', '&#', ';', 'http://[', '?q=é', '\u0000', '日本',
];
const from = (pieces: string[]) => fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 60 }).map((p) => p.join(''));
const encodings = fc.constantFrom('utf-8', 'windows-1252', 'shift_jis', 'gb18030', 'iso-2022-jp', 'utf-16le', 'x-user-defined');
const runs = { numRuns: 1500, seed: 20261123 };

describe('extractors never throw on garbled input (property checks)', () => {
  it('extractMarkdown: positions inside the document, for any Markdown-ish text', () => {
    fc.assert(
      fc.property(from(markdownPieces), (md) => {
        const out = extractMarkdown(md);
        const lines = md.split(/\r\n|\r|\n/).length;
        for (const l of out.links) {
          expect(l.line).to.be.within(1, lines);
          expect(l.endLine).to.be.within(l.line, lines);
          expect(l.column).to.be.at.least(1);
        }
      }),
      runs,
    );
  });

  it('extractHtml and extractDocument(.html): any HTML-ish text in any encoding', () => {
    fc.assert(
      fc.property(from(htmlPieces), encodings, (html, encoding) => {
        const out = extractHtml(html, 'https://site.test/a/b.html', encoding);
        for (const l of out.links) expect(l.line).to.be.at.least(1);
        extractDocument({ path: 'x.html', content: html });
      }),
      runs,
    );
  });

  it('extractText and extractDocument(any other type, as text or bytes): every URL is http(s), found where its place says', () => {
    fc.assert(
      fc.property(from([...markdownPieces, 'http://', 'https://', 'HTTPS://a.b', 'x.test/', '"', "'", '{', '}', ',', '<https://z.test/>']), fc.uint8Array({ maxLength: 64 }), (text, bytes) => {
        const lines = text.split(/\r\n|\r|\n/);
        for (const l of extractText(text)) {
          expect(l.url).to.match(/^https?:\/\//i);
          const at = lines[l.line - 1].slice(l.column - 1);
          expect(at.startsWith(l.url) || at.startsWith(`<${l.url}`), `${l.url} at ${l.line}:${l.column}`).to.equal(true);
        }
        extractDocument({ path: 'a.yml', content: text });
        extractDocument({ path: 'b.bin', content: Buffer.from(bytes).toString('base64'), encoding: 'base64' });
        extractDocument({ path: 'c.html', content: Buffer.from(bytes).toString('base64'), encoding: 'base64' });
      }),
      runs,
    );
  });

  it('scanCss, parseRefresh, resolveIn and resolveInRepository: any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), from(htmlPieces), encodings, (s, t, encoding) => {
        scanCss(s + t);
        parseRefresh(s);
        resolveIn(s, 'https://site.test/', encoding);
        const r = resolveInRepository(t, 'docs/a.md');
        if ('path' in r) expect(r.path.startsWith('/')).to.equal(false);
      }),
      runs,
    );
  });

  it('nesting deeper than the stack is reported as unreadable, not thrown', function () {
    this.timeout(120_000);
    const deep = extractMarkdown('>'.repeat(12_000) + ' [a](b)');
    expect(deep.error).to.match(/nested too deeply/);
    expect(() => extractHtml('<div>'.repeat(50_000) + '<a href="x">', 'https://h/')).not.to.throw();
  });
});
