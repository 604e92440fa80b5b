import { expect } from 'chai';
import { extractMarkdown } from '../../server/links/extract-markdown.js';

/** `url line:column` of every link, in document order. */
const links = (md: string) => extractMarkdown(md).links.map((l) => `${l.url} ${l.line}:${l.column}${l.resource === 'image' ? ' image' : ''}`);
const anchors = (md: string) => [...extractMarkdown(md).anchors];

describe('extractMarkdown (CommonMark + GFM, as GitHub renders)', () => {
  const table: Array<[name: string, markdown: string, expected: string[]]> = [
    ['inline link', 'See [a](docs/a.md).', ['docs/a.md 1:5']],
    ['inline link with title', '[a](b.md "Title")', ['b.md 1:1']],
    ['image', '![logo](img/logo.png)', ['img/logo.png 1:1 image']],
    ['image inside a link (badge)', '[![build](https://ci/badge.svg)](https://ci/run)', ['https://ci/run 1:1', 'https://ci/badge.svg 1:2 image']],
    ['destination with balanced parentheses', '[w](https://en.wikipedia.org/wiki/Foo_(bar))', ['https://en.wikipedia.org/wiki/Foo_(bar) 1:1']],
    ['destination in angle brackets with a space', '[s](<docs/my file.md>)', ['docs/my file.md 1:1']],
    ['escaped and entity characters', '[e](a\\_b.md) [f](c&amp;d.md)', ['a_b.md 1:1', 'c&d.md 1:14']],
    ['link text across lines', 'x [multi\nline](m.md)', ['m.md 1:3']],
    ['autolink', 'Go to <https://example.com/a>.', ['https://example.com/a 1:7']],
    ['email autolink', '<me@example.com>', ['mailto:me@example.com 1:1']],
    ['GFM autolink literal', 'Visit https://example.com/x. Or www.example.org/y', ['https://example.com/x 1:7', 'http://www.example.org/y 1:33']],
    ['reference link: the definition is where the URL is written', '[use][r] and [r]\n\n[r]: https://example.com/ref', ['https://example.com/ref 3:1']],
    ['reference definition in a list continuation', '- item\n\n  [r]: ./in-list.md\n- [x][r]', ['./in-list.md 3:3']],
    ['image reference', '![alt][pic]\n\n[pic]: img/p.png', ['img/p.png 3:1 image']],
    ['root-relative link stays as written', '[r](/docs/x.md)', ['/docs/x.md 1:1']],
    ['fragment-only link', '[j](#install)', ['#install 1:1']],
    ['nothing in a fenced code block', '```\n[a](fenced.md)\n```\n~~~\nhttps://x/tilde\n~~~', []],
    ['nothing in an indented code block', 'para\n\n    [a](indented.md)', []],
    ['nothing in a code span', 'Use `[a](span.md)` or ``https://x/y``', []],
    ['nothing in an HTML comment', '<!-- [a](c.md) <a href="c.html"> -->\ntext <!-- https://x/inline -->', []],
    ['raw HTML block: a and img (GitHub strips img srcset)', '<p align="center">\n  <a href="https://x/a"><img src="logo.png" srcset="l@2x.png 2x"></a>\n</p>', ['https://x/a 2:3', 'logo.png 2:25 image']],
    ['inline raw HTML in a paragraph', 'Text <a href="in.html">in</a> more', ['in.html 1:6']],
    ['raw HTML inside a blockquote maps columns past the `> `', '> <img\n> src="q.png">', ['q.png 1:3 image']],
    ['a tag split over lines in a blockquote: the line of the tag', '> <a\n> href="z.md">z</a>', ['z.md 1:3']],
    ['HTML block ends at a blank line; Markdown after it is Markdown', '<div>\n\n[md](after.md)\n\n</div>', ['after.md 3:1']],
    ['table cells', '| a | b |\n|---|---|\n| [x](t.md) | <https://x/t> |', ['t.md 3:3', 'https://x/t 3:15']],
    ['footnote text keeps its links', 'Note[^1].\n\n[^1]: See [f](foot.md).', ['foot.md 3:11']],
    ['CRLF line ends', 'a\r\n[b](b.md)\r\n<img src="c.png">', ['b.md 2:1', 'c.png 3:1 image']],
  ];
  for (const [name, markdown, expected] of table) {
    it(`${name}: ${JSON.stringify(expected)}`, () => {
      expect(links(markdown)).to.deep.equal(expected);
    });
  }

  it('a link over several lines reports the line it starts on and the one it ends on', () => {
    const [link] = extractMarkdown('[multi\nline\ntext](m.md)').links;
    expect([link.line, link.endLine]).to.deep.equal([1, 3]);
  });
});

describe('extractMarkdown reference definitions (CommonMark: link reference definitions and full, collapsed, shortcut references)', () => {
  // `url line:column` of the links, and the definitions that render nothing.
  const read = (md: string) => {
    const r = extractMarkdown(md);
    return { links: r.links.map((l) => `${l.url} ${l.line}:${l.column}`), unused: r.unusedDefinitions.map((d) => `${d.url} ${d.line}${d.duplicate ? ' duplicate' : ''}`) };
  };
  const table: Array<[name: string, markdown: string, links: string[], unused: string[]]> = [
    ['an unused definition is not a link', '[Float]: #float\n\ntext', [], ['#float 1']],
    ['the first definition of a label wins', '[foo]\n\n[foo]: /first\n[foo]: /second', ['/first 3:1'], ['/second 4 duplicate']],
    ['labels match case-insensitively', '[FOO]\n\n[foo]: /url', ['/url 3:1'], []],
    ['labels match by Unicode case folding (ẞ and SS)', '[ẞ]\n\n[SS]: /url', ['/url 3:1'], []],
    ['inner whitespace collapses, a label may span lines', '[Foo\n  bar]: /url\n\n[Baz][Foo bar]', ['/url 1:1'], []],
    ['a collapsed reference', '[foo][]\n\n[foo]: /url', ['/url 3:1'], []],
    ['a reference before its definition', '[foo]\n\n> [foo]: /in-quote', ['/in-quote 3:3'], []],
    ['a definition inside a fenced block is code', '```\n[foo]: /code\n```\n\n[foo]', [], []],
    ['a definition cannot interrupt a paragraph', 'text\n[foo]: /url\n\n[foo]', [], []],
    ['an image reference uses it too', '![pic]\n\n[pic]: /img.png', ['/img.png 3:1'], []],
    ['a footnote is not a reference definition', 'x[^1]\n\n[^1]: note [in](/note.md)', ['/note.md 3:12'], []],
    ['a reference inside raw-text HTML does not render', '<script>[foo]</script> text\n\n[foo]: /url', [], ['/url 3']],
  ];
  for (const [name, markdown, links, unused] of table) {
    it(`${name}: ${JSON.stringify({ links, unused })}`, () => {
      expect(read(markdown)).to.deep.equal({ links, unused });
    });
  }
});

describe('extractMarkdown raw HTML and protocols as GitHub\'s sanitizer keeps them', () => {
  const table: Array<[name: string, markdown: string, expected: string[]]> = [
    ['link, meta, style, script, iframe, embed, object, video, audio are stripped', '<link href="/a.css" rel="stylesheet">\n<meta http-equiv="refresh" content="0;url=/m">\n<style>@import "/s.css";</style>\n<script src="/s.js"></script>\n<iframe src="/f"></iframe><embed src="/e"><object data="/o"></object><video src="/v" poster="/p"></video><audio src="/au"></audio>', []],
    ['style attributes and body/table backgrounds are stripped', '<table background="/t.png"><tr><td background="/c.png" style="background:url(/u.png)">x</td></tr></table>', []],
    ['a[href], img[src] and picture source[srcset] are kept', '<picture><source srcset="/dark.png 1x, /dark@2x.png 2x"><img src="/light.png" longdesc="/desc.html"></picture> <a href="/a.md">a</a>', ['/dark.png 1:10 image', '/dark@2x.png 1:10 image', '/light.png 1:57 image', '/a.md 1:112']],
    ['cite is kept by GitHub but no reader follows it', '<blockquote cite="/c.html">q</blockquote> <q cite="/q.html">q</q>', []],
    ['an element off the list drops its own URLs, not its children\'s', '<center><a href="/in-center.md">c</a></center>', ['/in-center.md 1:9']],
    ['link protocols other than http, https and mailto lose their href', '[f](ftp://h/x) [s](ssh://h) [m](mailto:a@b.c) <a href="file:///etc/passwd">f</a> [rel](x.md)', ['mailto:a@b.c 1:29', 'x.md 1:82']],
    ['image protocols other than http and https lose their src', '![d](data:image/png;base64,AA) <img src="ftp://h/i.png"> ![h](https://h/i.png)', ['https://h/i.png 1:58 image']],
  ];
  for (const [name, markdown, expected] of table) {
    it(`${name}: ${JSON.stringify(expected)}`, () => {
      expect(links(markdown)).to.deep.equal(expected);
    });
  }
});

describe('extractMarkdown heading anchors (github-slugger, GitHub rules)', () => {
  const table: Array<[name: string, markdown: string, expected: string[]]> = [
    ['ATX heading', '# Install it', ['install-it']],
    ['setext headings', 'Title\n=====\n\nSub\n---', ['title', 'sub']],
    ['inline code counts by its text', '## The `run()` method', ['the-run-method']],
    ['emphasis and links by their text', '## *Very* [important](x.md) part', ['very-important-part']],
    ['images add nothing (so an emoji image leaves a dash)', '## ![i](i.png) Icons', ['-icons']],
    ['raw HTML tags add nothing, their text does', '## <span>Red</span> alert', ['red-alert']],
    ['duplicates get -1, -2', '# Echo\n# Echo\n# Echo', ['echo', 'echo-1', 'echo-2']],
    ['a heading that looks like a duplicate suffix', '# Echo\n# Echo 1\n# Echo-1\n# Echo', ['echo', 'echo-1', 'echo-1-1', 'echo-2']],
    ['punctuation dropped, hyphen and underscore kept', '# exchange.bind_headers(exchange, routing [, cb])', ['exchangebind_headersexchange-routing--cb']],
    ['non-ASCII letters kept and lower-cased', '# Fünf süße Äpfel\n# Привет 你好', ['fünf-süße-äpfel', 'привет-你好']],
    ['an entity space is not trimmed', '# &#x20;a', ['-a']],
    ['closing hashes are not text', '## Setup ##', ['setup']],
    ['explicit anchors from raw HTML', '<a name="legacy"></a>\n\n<div id="box"></div>', ['legacy', 'box']],
    ['no heading in code', '```\n# not a heading\n```', []],
  ];
  for (const [name, markdown, expected] of table) {
    it(`${name}: ${JSON.stringify(expected)}`, () => {
      expect(anchors(markdown)).to.have.members(expected);
    });
  }
});
