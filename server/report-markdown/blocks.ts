import { htmlText } from './escape.js';

export type Align = 'left' | 'right' | 'center';

/** A table column: its header text (already Markdown) and alignment. */
export interface Column {
  title: string;
  align?: Align;
}

const rule: Record<Align, string> = { left: '---', right: '---:', center: ':---:' };

/** A GFM table's header and delimiter lines. Cells must already be escaped (`text`, `code`, `urlLink`). */
export const tableHead = (columns: Column[]) => [
  `| ${columns.map((c) => c.title).join(' | ')} |`,
  `|${columns.map((c) => rule[c.align ?? 'left']).join('|')}|`,
];

/** One table row. */
export const tableRow = (cells: string[]) => `| ${cells.join(' | ')} |`;

/** A whole table, with the blank line GFM needs before it. */
export const table = (columns: Column[], rows: string[][]) => ['', ...tableHead(columns), ...rows.map(tableRow)];

/**
 * The opening and closing lines of a collapsed `<details>` block. The blank line after
 * `<summary>` lets GitHub parse the Markdown inside; `summary` is plain text.
 */
export const detailsOpen = (summary: string, open = false) => ['', `<details${open ? ' open' : ''}><summary>${htmlText(summary)}</summary>`, ''];
export const detailsClose = ['', '</details>'];

/** `n thing(s)`: `1 broken link`, `3 broken links`. */
export const count = (n: number, singular: string, plural = `${singular}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? singular : plural}`;
