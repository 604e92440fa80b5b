import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { git, gitBlob } from '../documents/repository-paths.js';

/** A file of the checkout and where its lines are in the pull request's head, whose lines review comments address. */
export interface HeadLines {
  /** The line's text in the checkout (1-based), as the report's places count it. */
  text(line: number): string | undefined;
  /**
   * The same line's number in the head, when the head has it unchanged; undefined when the
   * checkout's line differs (a test merge commit where the base changed it).
   */
  inHead(line: number): number | undefined;
}

const split = (text: string) => text.split(/\r\n|\n|\r/);
const hunk = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm;

/**
 * Reads `file` in the checkout and maps its lines to the head commit. On the test merge
 * commit actions/checkout makes, a base that moved on shifts the lines of a file both changed:
 * the diff from the head to the checkout says by how much, so a suggestion still lands on the
 * head's line. Without a head, the checkout is the head. With a head the checkout does not
 * hold (actions/checkout's default: the merge commit at depth 1), the checkout's lines are the
 * head's only when the checkout is that commit; otherwise no line is placed, since the base may
 * have shifted it and a suggestion there would replace another line.
 */
export async function headLines(workspace: string, headSha: string | undefined, file: string): Promise<HeadLines> {
  const ws = await readFile(path.join(workspace, file), 'utf8').then(split, () => undefined);
  const head = headSha ? await gitBlob(workspace, `${headSha}:${file}`) : undefined;
  const headText = head ? split(head.toString('utf8')) : undefined;
  const diff = headText && headSha ? await git(workspace, ['diff', '--unified=0', '--no-color', '--no-ext-diff', headSha, '--', file]) : undefined;
  const checkoutIsHead = !headSha || (!headText && (await git(workspace, ['rev-parse', 'HEAD']))?.trim() === headSha);
  const hunks = [...(diff ?? '').matchAll(hunk)].map((m) => ({ removed: Number(m[2] ?? 1), start: Number(m[3]), added: Number(m[4] ?? 1) }));
  return {
    text: (line) => ws?.[line - 1],
    inHead(line) {
      if (!headText) return checkoutIsHead ? line : undefined;
      if (diff === undefined) return headText[line - 1] === ws?.[line - 1] ? line : undefined;
      let shift = 0;
      for (const h of hunks) {
        // A hunk that adds lines covers [start, start + added - 1]; one that only removes sits after line `start`.
        const last = h.added ? h.start + h.added - 1 : h.start;
        if (h.added && line >= h.start && line <= last) return undefined;
        if (last >= line) break;
        shift += h.added - h.removed;
      }
      const at = line - shift;
      return headText[at - 1] === ws?.[line - 1] ? at : undefined;
    },
  };
}
