import parseSrcset from '@prettier/parse-srcset';

const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\f' || c === '\r';

/**
 * The URLs of a `srcset` by the HTML spec's "parse a srcset attribute": URLs may hold commas,
 * and a candidate whose descriptors are in error (`foo`, `1x 2x`, `0w`, `100h` without a
 * width) is dropped alone, as browsers drop it, while the others stay.
 *
 * `@prettier/parse-srcset` follows the spec's tokenizer and descriptor parser but throws on
 * the first bad candidate, losing the whole list; so the list is first split into candidate
 * strings by the spec's own splitting steps and each is parsed on its own.
 */
export function srcsetUrls(value: string): string[] {
  const urls: string[] = [];
  for (const candidate of candidateStrings(value)) {
    try {
      const [parsed] = parseSrcset(candidate);
      // The spec's step 14, which the parser leaves out: a height descriptor needs a width.
      if (parsed && !(parsed.height && !parsed.width)) urls.push(parsed.source.value);
    } catch {
      // a descriptor error: the spec drops this candidate only
    }
  }
  return urls;
}

/**
 * Steps 4–8 of the algorithm without the descriptor parser: skip spaces and commas, take the
 * URL up to a space; a URL ending in a comma ends its candidate, otherwise the descriptors
 * run to the next comma outside parentheses (or the end).
 */
function candidateStrings(input: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    while (i < input.length && (input[i] === ',' || isSpace(input[i]))) i++;
    if (i >= input.length) return out;
    const start = i;
    while (i < input.length && !isSpace(input[i])) i++;
    if (input[i - 1] !== ',') {
      let inParens = false;
      for (; i < input.length; i++) {
        const c = input[i];
        if (inParens) inParens = c !== ')';
        else if (c === '(') inParens = true;
        else if (c === ',') break;
      }
    }
    out.push(input.slice(start, i));
    i++;
  }
}
