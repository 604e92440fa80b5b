import chardet from 'chardet';
import { labelToName, TextDecoder } from '@exodus/bytes/encoding.js';

/**
 * How GitHub reads a file that is not UTF-8 (linguist through charlock_holmes): binary by
 * charlock_holmes's test, else decoded in the encoding ICU's charset detector names (chardet is
 * a port of that detector), so a Latin-1 or Shift_JIS Markdown file is rendered, not skipped.
 */

/** charlock_holmes looks for a NUL byte in the first MiB. */
const BINARY_SCAN = 1024 * 1024;
/** Detection reads at most this much (ICU reads it all; past a MiB the answer does not change, only the time). */
const DETECT_SAMPLE = 1024 * 1024;

const startsWith = (bytes: Uint8Array, ...magic: number[]) => bytes.length > magic.length && magic.every((b, i) => bytes[i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/**
 * charlock_holmes's binary test: PostScript and UTF-16/32 with a BOM are text; PNG, GIF, PDF and
 * JPEG signatures are binary; otherwise a NUL byte in the first MiB makes it binary.
 */
export function isBinaryContent(bytes: Uint8Array): boolean {
  if (startsWith(bytes, ...ascii('%!PS-Adobe-'))) return false;
  if (startsWith(bytes, 0x89, ...ascii('PNG\r\n\x1a\n')) || startsWith(bytes, ...ascii('GIF87a')) || startsWith(bytes, ...ascii('GIF89a')) || startsWith(bytes, ...ascii('%PDF-'))) return true;
  if (startsWith(bytes, 0, 0, 0xfe, 0xff) || startsWith(bytes, 0xff, 0xfe, 0, 0)) return false;
  if (startsWith(bytes, 0xff, 0xd8, 0xff)) return true;
  if (startsWith(bytes, 0xfe, 0xff) || startsWith(bytes, 0xff, 0xfe)) return false;
  return bytes.subarray(0, BINARY_SCAN).includes(0);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A text file's content as GitHub shows it: UTF-8 when it is valid UTF-8 (a BOM dropped),
 * else in the encoding the detector finds. Null when the file is binary, or in an encoding
 * nothing here decodes (UTF-32, ISO-2022-KR/CN: outside the WHATWG Encoding Standard).
 */
export function decodeTextFile(bytes: Uint8Array): { text: string; encoding: string } | null {
  if (isBinaryContent(bytes)) return null;
  try {
    return { text: utf8.decode(bytes), encoding: 'utf-8' };
  } catch {
    // not UTF-8: detect, as GitHub does
  }
  const detected = chardet.detect(bytes.subarray(0, DETECT_SAMPLE));
  const encoding = detected ? labelToName(detected) : null;
  if (!encoding || encoding === 'replacement') return null;
  return { text: new TextDecoder(encoding).decode(bytes), encoding: encoding.toLowerCase() };
}
