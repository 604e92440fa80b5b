import type { CheerioAPI } from 'cheerio';
import { parse, type Selector } from 'css-what';

/**
 * What must be somewhere in a document for one branch of a selector list to match: its
 * tag names, and its attributes with the text their value must contain (`#a` is `id`
 * containing "a", `.b` is `class` containing "b"). Pseudo-classes add nothing.
 */
interface Needs {
  tags: string[];
  attributes: Array<{ name: string; text: string }>;
}

/** Tag names and, per attribute name, every value (lowercased, joined) of one document. */
export interface DocumentIndex {
  tags: Set<string>;
  attributes: Map<string, string>;
}

/**
 * css-select tests a selector against every element, and the data has about 1,800 of
 * them: on a page of 60,000 elements that is more than a minute. Most name an id, class or
 * attribute the page does not have at all, so a selector is run only when everything it
 * names is somewhere in the document (a necessary condition, so nothing is missed).
 */
export function mayMatch(selector: string, index: DocumentIndex): boolean {
  const branches = needsOf(selector);
  return branches !== null && branches.some((b) => b.tags.every((t) => index.tags.has(t)) && b.attributes.every((a) => index.attributes.get(a.name)?.includes(a.text)));
}

export function indexDocument($: CheerioAPI): DocumentIndex {
  const tags = new Set<string>();
  const values = new Map<string, string[]>();
  $('*').each((_, el) => {
    if (!('attribs' in el)) return;
    tags.add(el.name.toLowerCase());
    for (const [name, value] of Object.entries(el.attribs)) {
      const list = values.get(name.toLowerCase());
      if (list) list.push(value.toLowerCase());
      else values.set(name.toLowerCase(), [value.toLowerCase()]);
    }
  });
  return { tags, attributes: new Map([...values].map(([name, list]) => [name, list.join('\0')])) };
}

const cache = new Map<string, Needs[] | null>();

/** The needs of each branch; null when css-what cannot read the selector (cheerio could not run it either). */
function needsOf(selector: string): Needs[] | null {
  if (cache.has(selector)) return cache.get(selector) ?? null;
  let needs: Needs[] | null;
  try {
    needs = parse(selector).map(branchNeeds);
  } catch {
    needs = null;
  }
  cache.set(selector, needs);
  return needs;
}

function branchNeeds(tokens: Selector[]): Needs {
  const needs: Needs = { tags: [], attributes: [] };
  for (const t of tokens) {
    if (t.type === 'tag') needs.tags.push(t.name.toLowerCase());
    else if (t.type === 'attribute' && t.action !== 'not') {
      // `[a!=b]` also matches elements without `a`; every other form needs the attribute, and its value where one is given.
      needs.attributes.push({ name: t.name.toLowerCase(), text: t.action === 'exists' ? '' : t.value.toLowerCase() });
    }
  }
  return needs;
}
