import type { CheerioAPI } from 'cheerio';
import { isTag, type AnyNode, type Element } from 'domhandler';

/*
 * Fetch mode has no layout, so what CSS hides is judged from the markup alone: the
 * `hidden` attribute, inline `display`/`visibility` styles, `aria-hidden`, `inert` and
 * closed <details>. Style sheets are not applied; render mode asks the live page instead.
 */

const NOT_RENDERED = new Set(['script', 'style', 'template', 'noscript', 'head', 'title']);

const inlineStyle = (el: Element, property: string): string | undefined =>
  new RegExp(`(?:^|;)\\s*${property}\\s*:\\s*([^;!]+)`, 'i').exec(el.attribs.style ?? '')?.[1]?.trim().toLowerCase();

const displayNone = (el: Element) => el.attribs.hidden !== undefined || inlineStyle(el, 'display') === 'none';

/** axe's `isVisibleToScreenReaders`, negated, as far as the markup tells. */
export function isHiddenStatically($: CheerioAPI, el: Element): boolean {
  const chain = [el, ...$(el).parents().toArray()];
  if (chain.some((e) => displayNone(e) || e.attribs.inert !== undefined || e.attribs['aria-hidden']?.trim().toLowerCase() === 'true')) {
    return true;
  }
  const visibility = chain.map((e) => inlineStyle(e, 'visibility')).find((v) => v !== undefined);
  if (visibility === 'hidden' || visibility === 'collapse') return true;
  return chain.some((e, i) => {
    if (e.name !== 'details' || e.attribs.open !== undefined || i === 0) return false;
    const summary = $(e).children('summary').first().get(0);
    return chain[i - 1] !== summary;
  });
}

/** An anchor's `innerText` as far as the markup tells: hidden parts left out, whitespace collapsed, `<br>` a line break. */
export function visibleTextStatically($: CheerioAPI, el: Element): string {
  const parts: string[] = [];
  const walk = (node: AnyNode) => {
    if (node.type === 'text') parts.push($(node).text().replace(/[\t\n\f\r ]+/g, ' '));
    if (!isTag(node) || NOT_RENDERED.has(node.name) || displayNone(node)) return;
    if (node.name === 'br') parts.push('\n');
    for (const child of node.children) walk(child);
  };
  for (const child of el.children) walk(child);
  return parts.join('').replace(/ {2,}/g, ' ').replace(/ ?\n ?/g, '\n');
}
