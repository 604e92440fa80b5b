import { tokenize, TokenType, type CSSToken } from '@csstools/css-tokenizer';

/** One URL written in CSS. */
export interface CssReference {
  /** The URL as written (escapes resolved by the tokenizer). */
  value: string;
  /** 0-based offsets of the construct (`url(…)`, the string of `@import "…"`) in the CSS text. */
  start: number;
  end: number;
  /** `@import`: the target is a stylesheet; otherwise an image, font or other resource. */
  kind: 'import' | 'font' | 'resource';
}

const isUrlFunction = (name: string) => name.toLowerCase() === 'url' || name.toLowerCase() === 'src';
const isImageSet = (name: string) => /^(-webkit-)?image-set$/i.test(name);

/**
 * URLs of a stylesheet (or a `style` attribute) by the CSS Syntax tokenizer: `url(x)`,
 * `url("x")`, `@import "x"` and `@import url(x)`, strings inside `image-set()`. Comments and
 * strings that merely contain `url(` are not references, as for a browser.
 */
export function scanCss(css: string): CssReference[] {
  const tokens = tokenize({ css }, { onParseError: () => undefined }); // error recovery is the spec's, like a browser's
  const refs: CssReference[] = [];
  let afterImport = false;
  let fontFaceDepth = -1; // block depth of an @font-face rule, -1 outside
  let depth = 0;
  let pendingFontFace = false;
  const imageSets: number[] = []; // paren depths at which an image-set() opened
  let parens = 0;

  const kindHere = (): CssReference['kind'] => (afterImport ? 'import' : fontFaceDepth >= 0 ? 'font' : 'resource');
  const nextMeaningful = (from: number): number => {
    let i = from;
    while (i < tokens.length && (tokens[i][0] === TokenType.Whitespace || tokens[i][0] === TokenType.Comment)) i++;
    return i;
  };

  for (let i = 0; i < tokens.length; i++) {
    const t: CSSToken = tokens[i];
    switch (t[0]) {
      case TokenType.AtKeyword: {
        const name = t[4].value.toLowerCase();
        afterImport = name === 'import';
        if (name === 'font-face') pendingFontFace = true;
        break;
      }
      case TokenType.URL:
        refs.push({ value: t[4].value, start: t[2], end: t[3] + 1, kind: kindHere() });
        afterImport = false;
        break;
      case TokenType.String:
        if (afterImport || (imageSets.length && imageSets[imageSets.length - 1] === parens)) {
          refs.push({ value: t[4].value, start: t[2], end: t[3] + 1, kind: kindHere() });
        }
        afterImport = false;
        break;
      case TokenType.Function: {
        parens++;
        const name = t[4].value;
        if (isImageSet(name)) imageSets.push(parens);
        else if (isUrlFunction(name)) {
          const j = nextMeaningful(i + 1);
          const arg = tokens[j];
          if (arg && arg[0] === TokenType.String) {
            refs.push({ value: arg[4].value, start: t[2], end: arg[3] + 1, kind: kindHere() });
            i = j;
          }
          afterImport = false;
        }
        break;
      }
      case TokenType.OpenParen:
        parens++;
        break;
      case TokenType.CloseParen:
        if (imageSets.length && imageSets[imageSets.length - 1] === parens) imageSets.pop();
        parens = Math.max(0, parens - 1);
        break;
      case TokenType.OpenCurly:
        depth++;
        if (pendingFontFace) {
          fontFaceDepth = depth;
          pendingFontFace = false;
        }
        afterImport = false;
        break;
      case TokenType.CloseCurly:
        if (depth === fontFaceDepth) fontFaceDepth = -1;
        depth = Math.max(0, depth - 1);
        break;
      case TokenType.Semicolon:
        afterImport = false;
        pendingFontFace = false;
        break;
      default:
        break;
    }
  }
  return refs.filter((r) => r.value.trim() !== '');
}
