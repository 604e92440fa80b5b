import { MIMEType } from 'node:util';
import { getBOMEncoding, labelToName, TextDecoder } from '@exodus/bytes/encoding.js';
import htmlEncodingSniffer from 'html-encoding-sniffer';

/** What a fetched body is, as far as link extraction cares. */
export type BodyType = 'html' | 'css' | null;

export function bodyType(contentType: string | undefined): BodyType {
  const essence = mimeOf(contentType)?.essence;
  if (!essence) return null;
  if (essence === 'text/css') return 'css';
  if (essence === 'text/html' || essence === 'application/xhtml+xml' || /[/+]xml$/.test(essence)) return 'html';
  return null;
}

/**
 * Decodes a fetched body as a browser does. HTML by the WHATWG encoding sniffing order: a
 * BOM, then the Content-Type charset, then a `<meta charset>` / `http-equiv` prescan, then
 * windows-1252. CSS: BOM, Content-Type charset, else UTF-8. Returns the text and the
 * encoding's canonical name (queries of the page's relative URLs are encoded in it).
 */
export function decodeBody(bytes: Uint8Array, contentType: string | undefined, type: Exclude<BodyType, null>): { text: string; encoding: string } {
  const label = mimeOf(contentType)?.params.get('charset') ?? undefined;
  const encoding =
    type === 'html'
      ? htmlEncodingSniffer(bytes, { transportLayerEncodingLabel: label })
      : (getBOMEncoding(bytes) ?? (label ? labelToName(label) : null) ?? 'utf-8');
  return { text: new TextDecoder(encoding).decode(bytes), encoding: encoding.toLowerCase() };
}

function mimeOf(contentType: string | undefined): MIMEType | null {
  if (!contentType) return null;
  try {
    return new MIMEType(contentType);
  } catch {
    return null; // a malformed header: the body is not read as HTML or CSS
  }
}
