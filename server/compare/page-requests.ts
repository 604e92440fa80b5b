import * as cheerio from 'cheerio';

/**
 * The sub-resources a page's HTML asks for: scripts, style sheets, images, frames, media and
 * preloads, each distinct URL once. A static count (no browser), so both sides are counted
 * alike; requests a script makes later are not in it.
 */
export function countPageRequests(html: string): number {
  const $ = cheerio.load(html);
  const urls = new Set<string>();
  const add = (v: string | undefined) => v && !v.startsWith('data:') && urls.add(v.trim());
  $('script[src], img[src], iframe[src], video[src], audio[src], source[src], embed[src]').each((_, el) => void add($(el).attr('src')));
  $('link[rel~="stylesheet"][href], link[rel~="preload"][href], link[rel~="icon"][href]').each((_, el) => void add($(el).attr('href')));
  return urls.size;
}
