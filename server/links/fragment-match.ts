import { safeDecode } from './repository-links.js';

/** Fragments that need no element: empty, `top`, and text fragments (`#:~:text=`). */
export const alwaysValidFragment = (f: string): boolean => f === '' || f.toLowerCase() === 'top' || f.startsWith(':~:');

/**
 * Whether a fragment names one of `anchors`: as written or percent-decoded, as a browser
 * looks it up. `ignoreCase` for rendered Markdown: GitHub's page script also finds a
 * heading whose slug differs only in case, and links often capitalise.
 */
export function anchorMatcher(anchors: Iterable<string>, opts: { ignoreCase: boolean }): (fragment: string) => boolean {
  const exact = new Set(anchors);
  const folded = opts.ignoreCase ? new Set([...exact].map((a) => a.toLowerCase())) : null;
  return (fragment) => {
    if (alwaysValidFragment(fragment)) return true;
    const decoded = safeDecode(fragment);
    return exact.has(fragment) || exact.has(decoded) || (folded?.has(decoded.toLowerCase()) ?? false);
  };
}
