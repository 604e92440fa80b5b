const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\f' || c === '\r';

/**
 * `<meta http-equiv=refresh content>` by the HTML spec's "shared declarative refresh
 * steps": the delay in seconds and the URL as written (absent: the page reloads itself).
 * Null when the content is not a valid refresh.
 */
export function parseRefresh(input: string): { delay: number; url?: string } | null {
  let pos = 0;
  const skipSpace = () => {
    while (isSpace(input[pos])) pos++;
  };
  skipSpace();
  const digits = /^[0-9]*/.exec(input.slice(pos))?.[0] ?? '';
  pos += digits.length;
  if (!digits && input[pos] !== '.') return null;
  const delay = digits ? Number.parseInt(digits, 10) : 0;
  while (/[0-9.]/.test(input[pos] ?? '')) pos++;
  if (pos < input.length) {
    const c = input[pos];
    if (c !== ';' && c !== ',' && !isSpace(c)) return null;
    skipSpace();
    if (input[pos] === ';' || input[pos] === ',') pos++;
    skipSpace();
  }
  if (pos >= input.length) return { delay };

  let url = input.slice(pos);
  const lower = (i: number) => (input[i] ?? '').toLowerCase();
  if (lower(pos) === 'u') {
    let p = pos + 1;
    if (lower(p) === 'r' && lower(p + 1) === 'l') {
      p += 2;
      while (isSpace(input[p])) p++;
      if (input[p] === '=') {
        p++;
        while (isSpace(input[p])) p++;
        url = unquote(input.slice(p));
      }
    }
  } else {
    url = unquote(url);
  }
  return { delay, url: url.trim() || undefined };
}

function unquote(s: string): string {
  const quote = s[0] === '"' || s[0] === "'" ? s[0] : '';
  if (!quote) return s;
  const rest = s.slice(1);
  const end = rest.indexOf(quote);
  return end === -1 ? rest : rest.slice(0, end);
}
