import type { CheerioAPI } from 'cheerio';
import type { DomQuery } from './fingerprint-db.js';
import type { DomFinding } from './page-signals.js';
import { indexDocument, mayMatch } from './selector-prefilter.js';

/**
 * How much of the elements a selector matches is read, the same in cheerio and Chromium.
 * Every matching element is read, up to `elements`, and `values` distinct values per
 * attribute, property or text are kept (the engine keeps 50 findings per technology); a
 * text is cut at `textChars` (the engine's cut). The engine walks every node too, but its
 * check for a repeated finding compares the finding with itself, so it records an
 * attribute or property from the first element that has one only: a marker on a later
 * element is missed there.
 */
export const DOM_LIMITS = { elements: 10_000, values: 50, textChars: 1_000_000 };

export type DomLimits = typeof DOM_LIMITS;

/**
 * Reads the `dom` queries from a parsed document (fetch mode). Element properties are
 * JavaScript objects' and exist only in a browser, so they are not read here.
 */
export function readDomWithCheerio($: CheerioAPI, queries: DomQuery[], limits: DomLimits = DOM_LIMITS): DomFinding[] {
  const out: DomFinding[] = [];
  const index = indexDocument($);
  for (const q of queries) {
    if (!mayMatch(q.selector, index)) continue;
    let nodes;
    try {
      nodes = $(q.selector);
    } catch {
      continue; // selector syntax css-select does not support: as a browser that rejects it, no match
    }
    if (!nodes.length) continue;
    const finding: DomFinding = { selector: q.selector, texts: [], attributes: {}, properties: {} };
    nodes.slice(0, limits.elements).each((_, el) => {
      const node = $(el);
      if (q.text) {
        const text = node.text().trim().slice(0, limits.textChars);
        if (text) keep(finding.texts, text, limits.values);
      }
      for (const name of q.attributes) {
        const value = node.attr(name);
        if (value !== undefined) keep((finding.attributes[name] ??= []), value, limits.values);
      }
    });
    out.push(finding);
  }
  return out;
}

function keep(values: string[], value: string, max: number) {
  if (values.length < max && !values.includes(value)) values.push(value);
}
