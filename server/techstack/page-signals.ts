import * as cheerio from 'cheerio';
import type { PageSignals } from './tech-detector.js';

/** Turns a fetched page into the signals the fingerprints read (headers, cookies, meta, scripts, html, url). */
export function pageSignals(input: { url: string; headers: Headers; setCookies: string[]; html: string }): PageSignals {
  const headers: Record<string, string[]> = {};
  input.headers.forEach((value, name) => {
    if (name !== 'set-cookie') (headers[name] ??= []).push(value);
  });
  if (input.setCookies.length) headers['set-cookie'] = input.setCookies;
  const cookies: Record<string, string> = {};
  for (const line of input.setCookies) {
    const [pair] = line.split(';');
    const i = pair.indexOf('=');
    if (i > 0) cookies[pair.slice(0, i).trim()] = pair.slice(i + 1).trim();
  }
  const $ = cheerio.load(input.html);
  const meta: Record<string, string[]> = {};
  $('meta').each((_, el) => {
    const name = ($(el).attr('name') ?? $(el).attr('property') ?? $(el).attr('http-equiv') ?? '').toLowerCase();
    const content = $(el).attr('content');
    if (name && content !== undefined) (meta[name] ??= []).push(content);
  });
  const scriptSrc: string[] = [];
  const scripts: string[] = [];
  $('script').each((_, el) => {
    const src = $(el).attr('src');
    if (src) {
      try {
        scriptSrc.push(new URL(src, input.url).href);
      } catch {
        scriptSrc.push(src); // unparsable src: match it as written
      }
    } else {
      const text = $(el).text();
      if (text.trim()) scripts.push(text);
    }
  });
  return { url: input.url, headers, cookies, meta, scriptSrc, scripts, html: input.html };
}
