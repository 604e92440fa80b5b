/** A place in a text: 1-based line and column (columns count UTF-16 code units, as editors and mdast do). */
export interface TextPosition {
  line: number;
  column: number;
}

/**
 * Maps 0-based offsets of `text` to lines and columns. Line endings are LF, CRLF and CR,
 * as in CommonMark and HTML.
 */
export function positionIndex(text: string): (offset: number) => TextPosition {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo] + 1 };
  };
}
