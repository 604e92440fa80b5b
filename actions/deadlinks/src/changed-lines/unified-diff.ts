/** `[from, to]`, 1-based and inclusive, in the new version of a file. */
export type LineRange = [from: number, to: number];

/** Per path, the lines a change adds or modifies; `all` when the change is not shown line by line (too large). */
export type ChangedLines = Map<string, LineRange[] | 'all'>;

const hunkHeader = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * The new-side line numbers a unified diff adds (`+` lines) for one file: a modified line is
 * a removal and an addition, so it counts; context and removed lines do not. Works on
 * `git diff -U0` hunks and on the pull request API's `patch` (three lines of context).
 */
export function addedLines(hunks: string): number[] {
  const added: number[] = [];
  let line = 0;
  let inHunk = false;
  for (const text of hunks.split('\n')) {
    const header = hunkHeader.exec(text);
    if (header) {
      line = Number(header[1]);
      inHunk = true;
    } else if (!inHunk) continue;
    else if (text.startsWith('+')) added.push(line++);
    else if (text.startsWith(' ')) line++;
    else if (!text.startsWith('-') && !text.startsWith('\\')) inHunk = false; // the next file's header
  }
  return added;
}

/** `[3, 4, 5, 9]` → `[[3, 5], [9, 9]]`. */
export function toRanges(lines: number[]): LineRange[] {
  const ranges: LineRange[] = [];
  for (const n of [...new Set(lines)].sort((a, b) => a - b)) {
    const last = ranges.at(-1);
    if (last && n === last[1] + 1) last[1] = n;
    else ranges.push([n, n]);
  }
  return ranges;
}

/**
 * Added lines per file of a whole `git diff` (with `a/` and `b/` prefixes). Deleted files
 * have none; a file whose name git quotes (`"b/caf\303\251.md"`) is unquoted.
 */
export function parseGitDiff(diff: string): ChangedLines {
  const out: ChangedLines = new Map();
  const files = diff.split(/^diff --git /m).slice(1);
  for (const file of files) {
    const target = /^\+\+\+ (.+)$/m.exec(file)?.[1];
    if (!target || target === '/dev/null') continue;
    // Git ends a name holding whitespace with a tab (for patch tools).
    const name = unquote(target.replace(/\t$/, '')).replace(/^b\//, '');
    out.set(name, toRanges(addedLines(file)));
  }
  return out;
}

/** Git's C-style quoting of unusual path names: `\"`, `\\`, `\t`, `\n` and octal UTF-8 bytes. */
function unquote(s: string): string {
  if (!s.startsWith('"') || !s.endsWith('"')) return s;
  const bytes: number[] = [];
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, a: 7, b: 8, f: 12, v: 11, '"': 34, '\\': 92 };
  const body = s.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      bytes.push(...new TextEncoder().encode(c));
      continue;
    }
    const next = body[++i];
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else bytes.push(simple[next] ?? next.charCodeAt(0));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
