import '@exodus/bytes/encoding.js'; // legacy multi-byte encodings for percentEncodeAfterEncoding
import { percentEncodeAfterEncoding } from '@exodus/bytes/whatwg.js';

/** The query percent-encode set of the URL standard; special schemes also encode `'`. */
const QUERY_SET = ' "#<>';
const SPECIAL_QUERY_SET = ` "#'<>`;
const SPECIAL = new Set(['http:', 'https:', 'ws:', 'wss:', 'ftp:', 'file:']);

/**
 * Resolves `value` against `base` as a document in `encoding` does (the URL standard's
 * "encoding-parse a URL"): the path is always UTF-8, but a query written in the document
 * is percent-encoded in the document's encoding (windows-1252 `?q=é` is `?q=%E9`).
 * Null when the value is not a valid URL.
 */
export function resolveIn(value: string, base: string, encoding = 'utf-8'): string | null {
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  const enc = encoding.toLowerCase();
  if (enc === 'utf-8' || enc === 'utf-16le' || enc === 'utf-16be' || enc === 'replacement') return url.href;
  const hash = value.indexOf('#');
  const beforeHash = hash === -1 ? value : value.slice(0, hash);
  const q = beforeHash.indexOf('?');
  // Only a query written in the value is the document's; one inherited from the base is already encoded.
  if (q === -1 || /^[\x00-\x7f]*$/.test(beforeHash.slice(q))) return url.href;
  const raw = beforeHash.slice(q + 1).replace(/[\t\n\r]/g, '');
  const set = SPECIAL.has(url.protocol) ? SPECIAL_QUERY_SET : QUERY_SET;
  try {
    url.search = `?${percentEncodeAfterEncoding(enc, raw, set)}`;
  } catch {
    return url.href; // an encoding the encoder does not take: UTF-8, as new URL() did
  }
  return url.href;
}
