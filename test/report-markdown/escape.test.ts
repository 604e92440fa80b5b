import { expect } from 'chai';
import { marked, type Tokens } from 'marked';
import { tableHead, tableRow } from '../../server/report-markdown/blocks.js';
import { code, shorten, text, urlLink } from '../../server/report-markdown/escape.js';

/** The one table cell of `| a | <cell> |` as GitHub-flavoured Markdown parses it. */
function cell(markdown: string): Tokens.TableCell {
  const [table] = marked.lexer([...tableHead([{ title: 'a' }, { title: 'b' }]), tableRow(['x', markdown])].join('\n'));
  expect(table.type).to.equal('table');
  const t = table as Tokens.Table;
  expect(t.rows, 'one row').to.have.length(1);
  expect(t.rows[0], 'exactly two cells').to.have.length(2);
  return t.rows[0][1];
}

/** What a reader sees: the rendered HTML's text. */
const visible = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();

const hostile = [
  'a|b|c',
  '<script>alert(1)</script>',
  'uses `code` and ``more``',
  'ping @octocat and #12, $x$ math',
  'line\nbreak\r\nand\ttab',
  '[not](a link) ![nor](an image) **bold** _em_ ~~gone~~',
  'back\\slash\\|pipe',
  '&amp; stays literal',
];

describe('report-markdown escaping', () => {
  for (const s of hostile) {
    it(`text(), inside a table cell, shows ${JSON.stringify(s)} as it is, in one cell and without markup`, () => {
      const c = cell(text(s));
      expect(visible(marked.parseInline(text(s)) as string)).to.equal(s.replace(/[\r\n\t]+/g, ' '));
      expect(c.tokens.every((t) => t.type === 'text' || t.type === 'escape'), JSON.stringify(c.tokens)).to.equal(true);
    });
  }

  it('code(), with backtick runs and pipes, stays one code span in one cell showing the text', () => {
    for (const s of ['a`b', '``x``', '`edge`', 'p|q', ' spaced ']) {
      const c = cell(code(s));
      expect(c.tokens.map((t) => t.type)).to.deep.equal(['codespan']);
      expect((c.tokens[0] as Tokens.Codespan).text.replace(/\\\|/g, '|')).to.equal(s);
    }
    expect(marked.parseInline(code('a`b', 'text'))).to.equal('<code>a`b</code>');
  });

  it('urlLink(), for URLs holding | < > ` ] ) spaces and line breaks, is one link to exactly that URL', () => {
    const urls = [
      'https://example.com/a|b?q=<x>&y=`z`',
      'https://example.com/[draft]/(v2) final.html',
      'https://example.com/line\nbreak',
      'https://example.com/caf\u00e9/%20already-encoded',
      'http://[::1]:8080/ipv6',
    ];
    for (const url of urls) {
      const c = cell(urlLink(url));
      const links = c.tokens.filter((t): t is Tokens.Link => t.type === 'link');
      expect(links, url).to.have.length(1);
      expect(decodeURI(links[0].href), url).to.equal(decodeURI(url));
    }
  });

  it('urlLink() shows a 600-character URL in at most 80 characters, keeping its start and end', () => {
    const url = `https://docs.example.com/${'segment/'.repeat(70)}end.html`;
    const c = cell(urlLink(url));
    const label = visible(marked.parseInline(urlLink(url)) as string);
    expect([...label].length).to.be.at.most(80);
    expect(label.startsWith('https://docs.example.com/')).to.equal(true);
    expect(label.endsWith('end.html')).to.equal(true);
    expect((c.tokens[0] as Tokens.Link).href).to.equal(url);
    expect(shorten('short')).to.equal('short');
  });

  it('urlLink() shows a relative path or mailto: as code, not a link GitHub would resolve against the comment', () => {
    for (const target of ['docs/missing.md', '../up.md#frag', 'mailto:a@b.c']) {
      expect(cell(urlLink(target)).tokens.map((t) => t.type)).to.deep.equal(['codespan']);
    }
  });
});
