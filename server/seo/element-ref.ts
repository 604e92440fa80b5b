import { isTag, type Element, type ParentNode } from 'domhandler';
import type { ElementRef } from './check-result.js';

const ATTRIBUTE_CHARS = 75;
const SNIPPET_CHARS = 500;

/**
 * Names an element the way Lighthouse's node details do: up to four levels of
 * `tag#id` / `tag.firstClass` below `<html>`, and the opening tag with long attribute
 * values cut at 75 characters.
 */
export function elementRef(el: Element): ElementRef {
  return { selector: shortSelector(el), snippet: openingTag(el) };
}

function shortSelector(el: Element): string {
  const parts: string[] = [];
  let node: Element | null = el;
  while (node && parts.length < 4) {
    const id = node.attribs.id;
    const firstClass = node.attribs.class?.trim().split(/\s+/)[0];
    parts.unshift(node.name + (id ? `#${id}` : firstClass ? `.${firstClass}` : ''));
    const parent: ParentNode | null = node.parent;
    node = parent && isTag(parent) && parent.name !== 'html' ? parent : null;
  }
  return parts.join(' > ');
}

function openingTag(el: Element): string {
  let chars = 0;
  let attrs = '';
  for (const [name, raw] of Object.entries(el.attribs)) {
    if (chars > SNIPPET_CHARS) return `<${el.name}${attrs} …>`;
    const value = raw.length > ATTRIBUTE_CHARS ? `${raw.slice(0, ATTRIBUTE_CHARS - 1)}…` : raw;
    chars += name.length + value.length;
    attrs += ` ${name}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
  }
  return `<${el.name}${attrs}>`;
}
