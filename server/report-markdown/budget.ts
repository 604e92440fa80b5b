import { count } from './blocks.js';

/** GitHub refuses issue and PR comment bodies over 65,536 characters. */
export const githubCommentLimit = 65_536;

/** A step summary may hold 1 MiB; a little under, for GitHub's own wrapping. */
export const stepSummaryLimit = 1_000_000;

/** Why rows were left out, for the cut note. */
export const fitting = (limit: number) => (limit <= githubCommentLimit ? "to fit GitHub's 65,536-character limit for comments" : 'to fit the job summary');

/** What a row stands for when it is cut: `['broken link', 'broken links']`. */
export type Noun = readonly [singular: string, plural: string];

export interface Row {
  line: string;
  noun: Noun;
  /** Things this row itself leaves out (e.g. places past a cap), counted only when the row is shown. */
  omits?: { noun: Noun; n: number };
}

/** Rows under a common opening (heading, table head, `<details>`) and closing. */
export interface Block {
  open: string[];
  rows: Row[];
  close: string[];
}

export interface Layout {
  /** Always shown, first. */
  head: string[];
  /** In order of importance: once one is cut, every later one is cut too. */
  blocks: Block[];
  /** Lines saying what was left out; called only when something was. */
  cutNote: (summary: string) => string[];
  /** Always shown, last (one footer). */
  foot: string[];
}

export interface Fitted {
  markdown: string;
  /** Per noun (plural), how many were left out; empty when everything fit. */
  cut: Map<string, number>;
}

const size = (lines: string[]) => lines.reduce((n, l) => n + l.length + 1, 0);

/**
 * Lays out `layout` in at most `limit` characters: head and foot always, then blocks and
 * rows in order while they fit; whatever does not fit is counted by noun, and the note
 * says how many of each were left out, so a reader knows the report is partial and by how much.
 */
export function fitToBudget(layout: Layout, limit: number): Fitted {
  const cut = new Map<string, [Noun, number]>();
  const tally = (noun: Noun, n: number) => {
    if (n > 0) cut.set(noun[1], [noun, (cut.get(noun[1])?.[1] ?? 0) + n]);
  };
  // Reserve the longest note this layout could need: every row of every noun cut.
  const worst = new Map<string, [Noun, number]>();
  for (const b of layout.blocks) for (const r of b.rows) worst.set(r.noun[1], [r.noun, (worst.get(r.noun[1])?.[1] ?? 0) + 1 + (r.omits?.n ?? 0)]);
  const reserve = worst.size ? size(layout.cutNote(describe(worst))) + 40 * worst.size : 0;

  let budget = limit - size(layout.head) - size(layout.foot) - reserve;
  const body: string[] = [];
  let stopped = false;
  for (const block of layout.blocks) {
    const frame = size(block.open) + size(block.close);
    if (stopped || frame > budget) {
      stopped = true;
      for (const r of block.rows) tally(r.noun, 1);
      continue;
    }
    const shown: string[] = [];
    let left = budget - frame;
    for (const [i, r] of block.rows.entries()) {
      if (r.line.length + 1 > left) {
        stopped = true;
        for (const rest of block.rows.slice(i)) tally(rest.noun, 1);
        break;
      }
      shown.push(r.line);
      left -= r.line.length + 1;
      if (r.omits) tally(r.omits.noun, r.omits.n);
    }
    if (shown.length || block.rows.length === 0) {
      body.push(...block.open, ...shown, ...block.close);
      budget = left;
    }
  }
  const note = cut.size ? layout.cutNote(describe(cut)) : [];
  const markdown = [...layout.head, ...body, ...note, ...layout.foot].join('\n') + '\n';
  return { markdown, cut: new Map([...cut].map(([k, [, n]]) => [k, n])) };
}

/** `312 broken links, 20 warnings and 15 places`. */
function describe(counts: Map<string, [Noun, number]>): string {
  const parts = [...counts.values()].map(([noun, n]) => count(n, noun[0], noun[1]));
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '');
}
