import { parse, postprocess, preprocess } from 'micromark';
import { gfmAutolinkLiteral } from 'micromark-extension-gfm-autolink-literal';
import type { MarkdownLink } from './extract-markdown.js';

/**
 * Micromark with GFM's autolink literals and CommonMark's `autolink` (`<https://…>`, the
 * delimiting RFC 3986 appendix C recommends for URLs in plain text); every other construct is
 * off, so indentation, `#`, `>`, `*`, `[…](…)`, backslashes and entities are plain characters.
 */
const parseOptions: NonNullable<Parameters<typeof parse>[0]> = {
  extensions: [
    gfmAutolinkLiteral(),
    {
      disable: {
        null: [
          'attention', 'blockQuote', 'characterEscape', 'characterReference', 'codeFenced', 'codeIndented', 'codeText', 'definition',
          'hardBreakEscape', 'headingAtx', 'htmlFlow', 'htmlText', 'labelEnd', 'labelStartImage', 'labelStartLink', 'list',
          'setextUnderline', 'thematicBreak',
        ],
      },
    },
  ],
};

/**
 * Characters the URL standard never allows unescaped in a URL. In plain text they delimit
 * URLs (JSON and YAML quotes, backticks, template braces) where GFM, made for prose, would
 * take them into the URL (`{"u":"https://x"}` gives `https://x"}` there). They are read as
 * spaces, one for one, so positions stay; GFM's rules then apply as they are.
 */
const NOT_IN_URLS = /["`{}|\\^]/g;

/**
 * `'https://…'`: a URL that opens a single-quoted string ends at the string's closing quote
 * (lists in Python, JavaScript or YAML: `['https://a','https://b']`), though `'` may stand in
 * a URL and GFM would read on to the next space. Both quotes become spaces, so positions stay.
 */
const SINGLE_QUOTED_URL = /'(https?:\/\/[^'\s]*)'/gi;

/**
 * The absolute http(s) URLs of a text of any other kind (YAML, reStructuredText, JSON, plain
 * text), as lychee reads such files: URL literals by GFM's autolink-literal rules (micromark's
 * own tokenizer: `http://` or `https://` not glued to a letter before it, a valid domain,
 * trailing `.,:;!?*_~'"` and an unbalanced `)` left out, `&…;` entities cut), `<https://…>`
 * and single-quoted URLs.
 * `www.` literals and e-mail addresses are not URLs and are left out.
 *
 * Neither construct holds a space or a line ending, so the text is tokenized in pieces that
 * end at a space or a line ending (micromark slows down more than linearly on one long
 * paragraph); pieces without `http` are not tokenized at all.
 */
export function extractText(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  // One parser (its constructs combined once) for every piece: a piece is one line, so no
  // state of one (lazy lines, definitions) reaches another.
  const parser = parse(parseOptions);
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    if (!/http/i.test(lines[i])) continue;
    const line = lines[i].replace(NOT_IN_URLS, ' ').replace(SINGLE_QUOTED_URL, ' $1 ');
    for (const [from, piece] of pieces(line)) {
      if (!/http/i.test(piece)) continue;
      const events = postprocess(parser.document().write(preprocess()(piece, undefined, true)));
      for (const [kind, token] of events) {
        if (kind !== 'enter' || (token.type !== 'literalAutolinkHttp' && token.type !== 'autolinkProtocol')) continue;
        const url = piece.slice(token.start.offset, token.end.offset);
        if (!/^https?:\/\//i.test(url)) continue;
        // `<…>`: the construct, and so the place, starts at its `<`.
        const column = from + token.start.column - (token.type === 'autolinkProtocol' ? 1 : 0);
        links.push({ url, resource: 'page', navigational: true, line: i + 1, column, endLine: i + 1 });
      }
    }
  }
  return links;
}

const PIECE = 4096;

/** `[offset, piece]` of a line cut at the first space or tab after every PIECE characters. */
function* pieces(line: string): Generator<[number, string]> {
  const space = /[ \t]/g;
  for (let start = 0; start < line.length; ) {
    space.lastIndex = start + PIECE;
    const end = start + PIECE < line.length ? (space.exec(line)?.index ?? line.length) : line.length;
    yield [start, line.slice(start, end)];
    start = end;
  }
}
