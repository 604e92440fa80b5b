/** Width of `text` in Verdana 11px, close enough for a shields-style badge. */
function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += /[ilj.,:;|!'1]/.test(ch) ? 3.5 : /[mwMW%@]/.test(ch) ? 10 : /[A-Z0-9]/.test(ch) ? 7.5 : 6.5;
  return Math.ceil(w);
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

/** Badge colour by health score. */
export function badgeColor(score: number | null): string {
  if (score === null) return '#9f9f9f';
  if (score >= 99) return '#4c1';
  if (score >= 95) return '#97ca00';
  if (score >= 90) return '#dfb317';
  if (score >= 75) return '#fe7d37';
  return '#e05d44';
}

/** A shields-style SVG: `links | 98% healthy` (or `links | unknown`). */
export function renderBadge(score: number | null, label = 'links'): string {
  const value = score === null ? 'unknown' : `${Number.isInteger(score) ? score : score.toFixed(1)}% healthy`;
  const lw = textWidth(label) + 10;
  const vw = textWidth(value) + 10;
  const w = lw + vw;
  const color = badgeColor(score);
  const title = `${label}: ${value}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${escapeXml(title)}">
<title>${escapeXml(title)}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${vw}" height="20" fill="${color}"/><rect width="${w}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
<text x="${lw / 2}" y="15" fill="#010101" fill-opacity=".3">${escapeXml(label)}</text><text x="${lw / 2}" y="14">${escapeXml(label)}</text>
<text x="${lw + vw / 2}" y="15" fill="#010101" fill-opacity=".3">${escapeXml(value)}</text><text x="${lw + vw / 2}" y="14">${escapeXml(value)}</text>
</g></svg>`;
}
