import { Parser } from 'htmlparser2';

/** `<script type>` values a browser runs (the HTML spec's JavaScript MIME essences, plus `module`). */
const SCRIPT_TYPES = /^(|module|(text|application)\/(x-)?(java|ecma)script|text\/(jscript|livescript|javascript1\.[0-5])|text\/x-ecmascript)$/;

/**
 * Whether a page's DOM can differ in a browser from its HTML, so full mode must render it.
 * A page with no script that runs (no `<script>` of a JavaScript type, no `on…` handler, no
 * `javascript:` URL), no frame or plugin content that could reach into it, and no
 * declarative shadow root (a browser's serialised DOM leaves those out) has the same links
 * and ids either way; its meta refresh is read by the link extractor. Errs towards rendering.
 */
export function needsBrowser(html: string): boolean {
  let found = false;
  const parser: Parser = new Parser(
    {
      onopentag(tag, attrs) {
        if (found) return;
        if (tag === 'script' && SCRIPT_TYPES.test((attrs.type ?? '').trim().toLowerCase())) found = true;
        else if (tag === 'iframe' || tag === 'frame' || tag === 'object' || tag === 'embed') found = true;
        else if (tag === 'template' && ('shadowrootmode' in attrs || 'shadowroot' in attrs)) found = true;
        else {
          for (const [name, value] of Object.entries(attrs)) {
            if (name.startsWith('on') || /^\s*javascript:/i.test(value)) {
              found = true;
              break;
            }
          }
        }
        if (found) parser.pause();
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return found;
}
