/** Text safe inside a markdown table cell. */
export const cell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** A URL as a short link: host and path, the full URL as target. */
export function link(url: string, max = 80): string {
  const label = url.length > max ? `${url.slice(0, max - 1)}…` : url;
  return `[${cell(label).replace(/[[\]]/g, '\\$&')}](${url.replace(/\)/g, '%29').replace(/ /g, '%20')})`;
}

/** GitHub refuses comment bodies over 65,536 characters; keep a margin for the marker. */
export const maxCommentChars = 65_000;

/** Cuts `markdown` at a line boundary, with a note pointing to the job summary. */
export function fitComment(markdown: string, note = '_Report truncated: the full list is in the job summary and the JSON report._'): string {
  if (markdown.length <= maxCommentChars) return markdown;
  const cut = markdown.lastIndexOf('\n', maxCommentChars - note.length - 2);
  return `${markdown.slice(0, cut)}\n\n${note}\n`;
}
