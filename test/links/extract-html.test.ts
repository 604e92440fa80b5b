import { expect } from 'chai';
import { scanCss } from '../../server/links/extract-css.js';
import { extractHtml, scanHtml } from '../../server/links/extract-html.js';
import { parseRefresh } from '../../server/links/meta-refresh.js';
import { resolveInRepository, resolveInSite } from '../../server/links/repository-links.js';
import { resolveIn } from '../../server/links/resolve-url.js';
import { srcsetUrls } from '../../server/links/srcset.js';

const BASE = 'https://site.test/dir/page.html';
/** `url line:column resource` of every link, in document order. */
const links = (html: string, encoding?: string) => extractHtml(html, BASE, encoding).links.map((l) => `${l.url} ${l.line}:${l.column} ${l.resource}`);

describe('extractHtml', () => {
  const table: Array<[name: string, html: string, expected: string[]]> = [
    ['a, area, img, script, iframe', '<a href="a.html">a</a><area href="/b"><img src="c.png"><script src="d.js"></script><iframe src="e.html"></iframe>', [
      'https://site.test/dir/a.html 1:1 page',
      'https://site.test/b 1:23 page',
      'https://site.test/dir/c.png 1:39 image',
      'https://site.test/dir/d.js 1:56 script',
      'https://site.test/dir/e.html 1:84 frame',
    ]],
    ['srcset by the spec: commas inside URLs stay', '<img srcset="data:image/png;base64,AAA,BBB 1x, https://cdn.test/w_100,h_50/x.jpg 2x">', [
      'data:image/png;base64,AAA,BBB 1:1 image',
      'https://cdn.test/w_100,h_50/x.jpg 1:1 image',
    ]],
    ['srcset with line breaks and a one-letter URL', '<source srcset="\n  a 1x,\n  b.png\n  2x">', ['https://site.test/dir/a 1:1 image', 'https://site.test/dir/b.png 1:1 image']],
    ['link rel: stylesheet, icon, canonical; preconnect skipped', '<link rel=stylesheet href=s.css><link rel="icon" href=/f.ico><link rel=canonical href=/c><link rel=preconnect href=//cdn.test>', [
      'https://site.test/dir/s.css 1:1 stylesheet',
      'https://site.test/f.ico 1:33 image',
      'https://site.test/c 1:62 page',
    ]],
    ['style element and style attribute: url() and @import', '<style>\n@import "i.css";\n.a{background:url(bg.png)}\n</style><p style="background:url(\'s.png\')">', [
      'https://site.test/dir/i.css 2:9 stylesheet',
      'https://site.test/dir/bg.png 3:15 image',
      'https://site.test/dir/s.png 4:9 image',
    ]],
    ['nothing inside comments, conditional comments included', '<!-- <a href="x.html"> --><!--[if IE]><link rel=stylesheet href=ie.css><![endif]--><a href="y.html">', ['https://site.test/dir/y.html 1:84 page']],
    ['base href applies to every URL, also before it', '<a href="before.html"></a><base href="https://other.test/root/"><a href="after.html">', [
      'https://other.test/root/before.html 1:1 page',
      'https://other.test/root/after.html 1:65 page',
    ]],
    ['meta refresh is a navigational link', '<meta http-equiv="Refresh" content="0; URL=\'/next\'">', ['https://site.test/next 1:1 page']],
    ['entities in attributes are decoded', '<a href="q?a=1&amp;b=2">', ['https://site.test/dir/q?a=1&b=2 1:1 page']],
    ['blockquote cite, video poster, object data', '<blockquote cite="/src"></blockquote><video poster="p.jpg" src="v.mp4"></video><object data="o.swf">', [
      'https://site.test/src 1:1 page',
      'https://site.test/dir/v.mp4 1:38 media',
      'https://site.test/dir/p.jpg 1:38 image',
      'https://site.test/dir/o.swf 1:80 media',
    ]],
    ['an unparsable URL is kept as written', '<a href="http://[bad">', ['http://[bad 1:1 page']],
    ['input type=image only', '<input src="no.png"><input type="image" src="yes.png">', ['https://site.test/dir/yes.png 1:21 image']],
  ];
  for (const [name, html, expected] of table) {
    it(`${name}`, () => {
      expect(links(html)).to.deep.equal(expected);
    });
  }

  it('a windows-1252 page encodes the query of its relative URLs in windows-1252, the path in UTF-8', () => {
    expect(links('<a href="café.html?q=é">', 'windows-1252')).to.deep.equal(['https://site.test/dir/caf%C3%A9.html?q=%E9 1:1 page']);
  });

  it('anchors: ids of any element and names of a elements', () => {
    expect([...scanHtml('<h2 id="intro">x</h2><a name="old"></a><div name="no"></div>').anchors]).to.have.members(['intro', 'old']);
  });

  it('reports the meta refresh target separately', () => {
    expect(extractHtml('<meta http-equiv=refresh content="3;url=/away">', BASE).refresh).to.equal('https://site.test/away');
    expect(extractHtml('<meta http-equiv=refresh content="30">', BASE).refresh).to.equal(undefined);
  });
});

describe('srcsetUrls (the HTML spec\'s "parse a srcset attribute")', () => {
  // Cases from the spec's steps and the rules of the web-platform-tests srcset parsing suite;
  // where a browser drops a candidate, only that candidate is gone.
  const table: Array<[name: string, srcset: string, expected: string[]]> = [
    ['commas inside URLs stay', 'data:,a 1x, https://cdn.test/w_100,h_50/x.jpg 2x', ['data:,a', 'https://cdn.test/w_100,h_50/x.jpg']],
    ['leading, trailing and repeated commas and spaces', ' ,, data:,a ,, ,', ['data:,a']],
    ['a URL ending in commas ends its candidate (commas removed)', 'a.png,, b.png 2x', ['a.png', 'b.png']],
    ['tabs, line feeds, form feeds and CRs separate', '\ta.png\n1x,\fb.png\r2x', ['a.png', 'b.png']],
    ['an unknown descriptor drops its candidate only', 'a.png 1x, b.png foo, c.png 2x', ['a.png', 'c.png']],
    ['two densities, width and density, zero width: each dropped alone', 'a.png 1x 1x, b.png 1w 1x, c.png 0w, d.png 100w', ['d.png']],
    ['a height needs a width', 'a.png 100h, b.png 200w 100h, c.png 100h 200w', ['b.png', 'c.png']],
    ['width is an integer, density a float (exponent allowed, no plus sign)', 'a.png 1.0w, b.png 1e0x, c.png .5x, d.png +1x, e.png 1X', ['b.png', 'c.png']],
    ['zero density is valid, a negative one is not', 'a.png 0x, b.png -1x', ['a.png']],
    ['a comma inside parentheses does not end the candidate', 'data:,a ( , data:,b 1x, ), data:,c', ['data:,c']],
    ['brackets, braces and quotes are not parentheses', 'data:,a [ , data:,b 1x, ], data:,c', ['data:,b', ']', 'data:,c']],
    ['an unclosed parenthesis runs to the end, dropping its candidate', 'data:,a, data:,b (x, data:,c', ['data:,a']],
    ['a non-breaking space is part of the URL, not a separator', 'a.png\u00a01x', ['a.png\u00a01x']],
    ['nothing but commas and spaces', ' , ,', []],
  ];
  for (const [name, srcset, expected] of table) {
    it(name, () => {
      expect(srcsetUrls(srcset)).to.deep.equal(expected);
    });
  }

  it('in a page: one bad candidate leaves the others of img srcset and link imagesrcset', () => {
    expect(links('<img srcset="a.png 1x, b.png 2q, c.png 3x"><link rel=preload as=image imagesrcset="d.png 100w, e.png 1x 2x">')).to.deep.equal([
      'https://site.test/dir/a.png 1:1 image',
      'https://site.test/dir/c.png 1:1 image',
      'https://site.test/dir/d.png 1:44 image',
    ]);
  });
});

describe('scanCss (CSS Syntax tokenizer)', () => {
  const table: Array<[name: string, css: string, expected: string[]]> = [
    ['url() bare, single and double quoted', '.a{b:url(x.png)} .c{d:url( \'y.png\' )} .e{f:url("z.png")}', ['x.png resource', 'y.png resource', 'z.png resource']],
    ['@import string and url()', '@import "a.css"; @import url(b.css) screen; @import url("c.css");', ['a.css import', 'b.css import', 'c.css import']],
    ['comments and strings holding url( are not references', '/* url(no.png) */ .a{content:"url(no2.png)"}', []],
    ['escapes resolved', '.a{b:url(sp\\ ace.png)}', ['sp ace.png resource']],
    ['@font-face src is a font', '@font-face{font-family:x;src:url(f.woff2) format("woff2")} .a{b:url(i.png)}', ['f.woff2 font', 'i.png resource']],
    ['image-set strings', '.a{b:image-set("1x.png" 1x, url(2x.png) 2x)}', ['1x.png resource', '2x.png resource']],
    ['data URIs are returned (the caller skips the scheme)', '.a{b:url(data:image/png;base64,AAA=)}', ['data:image/png;base64,AAA= resource']],
    ['broken CSS still yields what a browser reads (an unclosed url() at the end too)', '.a{b:url(ok.png)} .c{ d: url(unclosed', ['ok.png resource', 'unclosed resource']],
  ];
  for (const [name, css, expected] of table) {
    it(name, () => {
      expect(scanCss(css).map((r) => `${r.value} ${r.kind}`)).to.deep.equal(expected);
    });
  }
});

describe('parseRefresh (HTML shared declarative refresh steps)', () => {
  const table: Array<[string, ReturnType<typeof parseRefresh>]> = [
    ['0; url=/next', { delay: 0, url: '/next' }],
    ['5;URL=\'/quoted\'', { delay: 5, url: '/quoted' }],
    ['3, url="/comma"', { delay: 3, url: '/comma' }],
    ['1 /bare-after-space', { delay: 1, url: '/bare-after-space' }],
    ['.5; url=/dot', { delay: 0, url: '/dot' }],
    ['10', { delay: 10 }],
    ['soon; url=/x', null],
    ['0;url=/a b', { delay: 0, url: '/a b' }],
  ];
  for (const [input, expected] of table) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      expect(parseRefresh(input)).to.deep.equal(expected);
    });
  }
});

describe('resolveIn (URL standard with the document encoding)', () => {
  it('keeps an inherited query and a UTF-8 document as new URL() does', () => {
    expect(resolveIn('#x', 'https://h/p?q=%E9', 'windows-1252')).to.equal('https://h/p?q=%E9#x');
    expect(resolveIn('a?q=é', 'https://h/', 'utf-8')).to.equal('https://h/a?q=%C3%A9');
  });
  it('encodes a Shift_JIS query in Shift_JIS (bytes outside the query set stay, as 0x7B `{` here) and returns null for a non-URL', () => {
    expect(resolveIn('a?q=日本', 'https://h/', 'shift_jis')).to.equal('https://h/a?q=%93%FA%96{');
    expect(resolveIn('http://[', 'https://h/')).to.equal(null);
  });
});

describe('resolveInRepository (GitHub relative links, .. above the root onto the repository\'s pages)', () => {
  const table: Array<[value: string, from: string, expected: unknown]> = [
    ['guide.md', 'docs/a.md', { path: 'docs/guide.md', directory: false, fragment: '' }],
    ['../README.md#top', 'docs/a.md', { path: 'README.md', directory: false, fragment: 'top' }],
    ['/img/x.png', 'docs/deep/a.md', { path: 'img/x.png', directory: false, fragment: '' }],
    ['sub/', 'docs/a.md', { path: 'docs/sub', directory: true, fragment: '' }],
    ['#heading', 'docs/a.md', { path: 'docs/a.md', directory: false, fragment: 'heading' }],
    ['my%20file.md?plain=1', 'a.md', { path: 'my file.md', directory: false, fragment: '' }],
    ['bad%E0%A4%A.md', 'a.md', { path: 'bad%E0%A4%A.md', directory: false, fragment: '' }],
    // Above the root, GitHub's page of the file (…/owner/repo/blob/<ref>/…) leads to the repository's own pages.
    ['../../x.md', 'docs/a.md', { aboveRoot: 'blob/x.md', fragment: '' }],
    ['../../', 'README.md', { aboveRoot: '', fragment: '' }],
    ['/../../', 'docs/a.md', { aboveRoot: '', fragment: '' }],
    ['../../issues?q=1#top', 'README.md', { aboveRoot: 'issues?q=1', fragment: 'top' }],
    ['../../../sibling-repo', 'README.md', { aboveRoot: '../sibling-repo', fragment: '' }],
  ];
  for (const [value, from, expected] of table) {
    it(`${value} from ${from}`, () => {
      expect(resolveInRepository(value, from)).to.deep.equal(expected);
    });
  }
});

describe('resolveInSite (an HTML document as a browser reads it on its site)', () => {
  const table: Array<[value: string, from: string, root: string, base: string | undefined, expected: unknown]> = [
    ['/css/main.css', '_site/blog/post.html', '_site', undefined, { path: '_site/css/main.css', directory: false, fragment: '' }],
    ['/', '_site/blog/post.html', '_site', undefined, { path: '_site', directory: true, fragment: '' }],
    ['../img/a.png#x', '_site/blog/post.html', '_site', undefined, { path: '_site/img/a.png', directory: false, fragment: 'x' }],
    ['../../../up.html', '_site/blog/post.html', '_site', undefined, { path: '_site/up.html', directory: false, fragment: '' }],
    ['/css/main.css', 'docs/page.html', '', undefined, { path: 'css/main.css', directory: false, fragment: '' }],
    ['about/', '_site/blog/post.html', '_site', '/', { path: '_site/about', directory: true, fragment: '' }],
    ['x.html', '_site/blog/post.html', '_site', '../other/', { path: '_site/other/x.html', directory: false, fragment: '' }],
    ['x.html?q=1', 'a.html', '', 'https://cdn.test/base/', { url: 'https://cdn.test/base/x.html?q=1' }],
    ['a.html', 'p.html', '', 'http://[', { path: 'a.html', directory: false, fragment: '' }],
    ['caf%C3%A9.html', 'p.html', '', undefined, { path: 'café.html', directory: false, fragment: '' }],
    ['//[bad', 'p.html', '', undefined, null],
  ];
  for (const [value, from, root, base, expected] of table) {
    it(`${value} from ${from} (site root ${root || 'the repository root'}${base ? `, base ${base}` : ''})`, () => {
      expect(resolveInSite(value, from, root, base)).to.deep.equal(expected);
    });
  }
});
