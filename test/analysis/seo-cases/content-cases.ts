import { body, type SeoCase } from './case.js';

const link = (text: string, attrs = 'href="/otherpage.html"') => `<a ${attrs}>${text}</a>`;

/** link-text: Lighthouse's lists per language; javascript:, mailto:, same-page and nofollow links out of scope. */
export const linkTextCases: SeoCase[] = [
  ...[
    ['click here', 'en'],
    ['klicke hier', 'de'],
    ['click aquí', 'es'],
    ['click here', 'en-US'],
    ['klicke hier', 'de-DE'],
    ['click this', 'en'],
    ['Read More', 'en'],
    ['  here  ', 'en'],
    ['läs mer', 'sv'],
    ['ここをクリック', 'ja'],
  ].map(
    ([text, lang]): SeoCase => ({
      name: `"${text}" in a lang="${lang}" page is not descriptive`,
      check: 'link_text',
      html: body(`<p>${link('legit link text')} and ${link(text)}</p>`, `lang="${lang}"`),
      expect: 'fail',
      names: { reason: 'Non-descriptive link text', text: text.trim(), url: '{origin}/otherpage.html', selector: 'body > p > a' },
    }),
  ),
  ...['click here', 'klicke hier', 'click aquí'].map(
    (text): SeoCase => ({ name: `"${text}" with no language known is checked against every list`, check: 'link_text', html: body(link(text)), expect: 'fail' }),
  ),
  { name: '"click here" in a lang="fr" page is not in any French list', check: 'link_text', html: body(link('click here'), 'lang="fr"'), expect: 'pass' },
  { name: 'links to the page itself and its fragments are ignored', check: 'link_text', html: body(`${link('click here', 'href="/page"')}${link('click here', 'href="#test"')}`), expect: 'pass' },
  {
    name: 'javascript: links are ignored',
    check: 'link_text',
    html: body(`${link('click here', 'href="javascript:alert(1)"')}${link('click here', 'href="JAVASCRIPT:void(0)"')}`),
    expect: 'pass',
  },
  { name: 'mailto: links are ignored', check: 'link_text', html: body(link('click here', 'href="mailto:info@example.com"')), expect: 'pass' },
  { name: 'links without href are ignored', check: 'link_text', html: body(link('click here', 'name="x"')), expect: 'pass' },
  { name: 'rel="noopener nofollow" links are ignored', check: 'link_text', html: body(link('click here', 'href="/other" rel="noopener nofollow"')), expect: 'pass' },
  { name: 'a tel: link is still checked', check: 'link_text', html: body(link('click here', 'href="tel:5555555"')), expect: 'fail' },
  {
    name: 'descriptive texts pass',
    check: 'link_text',
    html: body(`${link('legit link text')}${link('legitimer Link-Text', 'href="/de" lang="de"')}${link('legit link text', 'href="/page?test=test"')}`),
    expect: 'pass',
  },
  { name: 'a full URL as link text is not in the lists', check: 'link_text', html: body(link('https://example.com/otherpage.html', 'href="https://example.com/otherpage.html"')), expect: 'pass' },
  { name: 'rendered text counts: a hidden span leaves "click here"', check: 'link_text', html: body(link('click here<span hidden> to see our oak tables</span>')), expect: 'fail' },
  { name: 'rendered text counts: line breaks and spaces collapse', check: 'link_text', html: body(link('click\n     here')), expect: 'fail' },
];

const anchor = (attrs: string, text = 'Oak tables') => body(`<p><a ${attrs}>${text}</a></p>`);

/** crawlable-anchors: an href a crawler can follow; placeholders (no href) only without event listeners. */
export const crawlableAnchorCases: SeoCase[] = [
  ...['#top', 'mailto:name@example.com', 'https://example.com', 'foo', '/foo', '#:~:text=string', 'ftp://myname@host.dom', 'http://172.217.20.78',
    '//example.com', 'tel:5555555', '#', '?query=string', '', ' ', 'javascript:alert(1)'].map(
    (href): SeoCase => ({ name: `href="${href}" is crawlable`, check: 'crawlable_anchors', html: anchor(`href="${href}"`), expect: 'pass' }),
  ),
  ...['aria-current="page"', 'aria-current="location"', 'aria-current="true"', '', 'id="example"', 'name="name"', 'role="some-role" href="javascript:void(0)"', 'role="a"',
    'href="/validPath" onclick="window.location=\'/x\'"', 'href="mailto:name@example.com" onclick="window.open()"'].map(
    (attrs): SeoCase => ({ name: `<a ${attrs}> is acceptable`, check: 'crawlable_anchors', html: anchor(attrs), expect: 'pass' }),
  ),
  ...['javascript:void(0)', 'javascript: void(0)', 'javascript : void(0)', 'javascript : void ( 0 )', 'javascript: void 0', 'javascript:void 0', 'javascript:void0'].map(
    (href): SeoCase => ({
      name: `href="${href}" is not crawlable`,
      check: 'crawlable_anchors',
      html: anchor(`href="${href}"`),
      expect: 'fail',
      names: { reason: 'href is javascript:void(0)', selector: 'body > p > a', snippet: `<a href="${href}">` },
    }),
  ),
  ...['href="ftp://"', 'href="file:///image.png"', 'target="_blank"', 'name=" " rel="x"', 'role=" " rel="x"', 'onclick="location.href=\'/x\'"'].map(
    (attrs): SeoCase => ({ name: `<a ${attrs}> is not crawlable`, check: 'crawlable_anchors', html: anchor(attrs), expect: 'fail', names: { selector: 'body > p > a' } }),
  ),
  {
    name: 'an <a> without href that script gave a click listener is not crawlable',
    check: 'crawlable_anchors',
    html: body('<p><a class="js-link">Oak tables</a></p><script>document.querySelector(".js-link").addEventListener("click", () => {});</script>'),
    expect: 'fail',
    fetchExpect: 'pass',
    names: { selector: 'body > p > a.js-link', reason: 'no href, only event handlers' },
  },
];

const img = (attrs: string, extra = '') => body(`<p><img ${attrs}>${extra}</p><p>Oak tables made by hand</p>`);

/** image-alt (axe): alt, aria-label, aria-labelledby, title or a presentational role; hidden images out of scope. */
export const imageAltCases: SeoCase[] = [
  { name: 'an image with alt text passes', check: 'image_alt', html: img('src="/a.png" alt="An oak table"'), expect: 'pass' },
  { name: 'an image without alt fails', check: 'image_alt', html: img('src="/a.png"'), expect: 'fail', names: { selector: 'body > p > img', snippet: '<img src="/a.png">', url: '/a.png' } },
  { name: 'a decorative image with alt="" passes', check: 'image_alt', html: img('src="/a.png" alt=""'), expect: 'pass' },
  { name: 'role="presentation" passes', check: 'image_alt', html: img('src="/a.png" role="presentation"'), expect: 'pass' },
  { name: 'role="none" passes', check: 'image_alt', html: img('src="/a.png" role="none"'), expect: 'pass' },
  { name: 'aria-label passes', check: 'image_alt', html: img('src="/a.png" aria-label="An oak table"'), expect: 'pass' },
  { name: 'aria-labelledby to a caption passes', check: 'image_alt', html: img('src="/a.png" aria-labelledby="cap"', '<span id="cap">An oak table</span>'), expect: 'pass' },
  { name: 'aria-labelledby to a missing id fails', check: 'image_alt', html: img('src="/a.png" aria-labelledby="nothing"'), expect: 'fail' },
  { name: 'a title passes', check: 'image_alt', html: img('src="/a.png" title="An oak table"'), expect: 'pass' },
  { name: 'a blank title fails', check: 'image_alt', html: img('src="/a.png" title="  "'), expect: 'fail' },
  { name: 'a blank aria-label fails', check: 'image_alt', html: img('src="/a.png" aria-label=" "'), expect: 'fail' },
  { name: 'alt of only spaces fails', check: 'image_alt', html: img('src="/a.png" alt=" "'), expect: 'fail', names: { reason: 'alt contains only spaces' } },
  { name: 'alt of only spaces with role="presentation" passes', check: 'image_alt', html: img('src="/a.png" alt=" " role="presentation"'), expect: 'pass' },
  { name: 'role="presentation" on a focusable image does not count', check: 'image_alt', html: img('src="/a.png" role="presentation" tabindex="0"'), expect: 'fail' },
  { name: 'role="img" (a role that needs a name) without alt fails', check: 'image_alt', html: img('src="/a.png" role="img"'), expect: 'fail' },
  { name: 'an image with role="listitem" is left to other rules', check: 'image_alt', html: img('src="/a.png" role="listitem"'), expect: 'na' },
  { name: 'an image with the hidden attribute is not checked', check: 'image_alt', html: img('src="/a.png" hidden'), expect: 'na' },
  { name: 'an image with display:none is not checked', check: 'image_alt', html: img('src="/a.png" style="display:none"'), expect: 'na' },
  { name: 'an image inside aria-hidden="true" is not checked', check: 'image_alt', html: body('<div aria-hidden="true"><img src="/a.png"></div><p>Oak tables</p>'), expect: 'na' },
  { name: 'an image inside a closed <details> is not checked', check: 'image_alt', html: body('<details><summary>More</summary><img src="/a.png"></details>'), expect: 'na' },
  { name: 'a page without images is not applicable', check: 'image_alt', html: body('<p>Text only</p>'), expect: 'na' },
  {
    name: 'each failing image is named among passing ones',
    check: 'image_alt',
    html: body('<img src="/ok.png" alt="ok"><figure id="hero"><img src="/hero.png" class="wide big"></figure><p>Oak tables</p>'),
    expect: 'fail',
    names: { selector: 'body > figure#hero > img.wide', snippet: '<img src="/hero.png" class="wide big">' },
  },
];
