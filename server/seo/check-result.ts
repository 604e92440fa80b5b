/** Where a check's rule comes from: Lighthouse's SEO category, or ours. */
export type SeoSource = 'lighthouse' | 'sitelens';

/** An element of the page: a short CSS path and its opening tag, as Lighthouse's node details. */
export interface ElementRef {
  selector: string;
  snippet: string;
}

/** One line of robots.txt (1-based number and text as served). */
export interface RobotsLine {
  line: number;
  content: string;
}

/** One thing that fails a check, with what names it. */
export interface SeoItem {
  /** Why it fails, in Lighthouse's words where Lighthouse has them. */
  reason: string;
  element?: ElementRef;
  robots_txt?: RobotsLine;
  /** A response header as `name: value`. */
  header?: string;
  /** A URL the item is about (a link's destination, a canonical). */
  url?: string;
  /** Link text. */
  text?: string;
}

/** One check's outcome; `value` is what was observed. */
export interface SeoCheck {
  pass: boolean;
  value: unknown;
  message: string;
  /** Points this check is worth in the score. */
  weight: number;
  /** One sentence telling what to do; empty when the check passes. */
  recommendation: string;
  source: SeoSource;
  /** The Lighthouse audit this check reproduces; null for ours. */
  lighthouse_audit: string | null;
  /** False when there was nothing to check (Lighthouse's "not applicable"); `pass` is then true. */
  applicable: boolean;
  /** What fails, one entry per element, robots.txt line or header; empty when the check passes. */
  items: SeoItem[];
  /** Notes that do not change the verdict. */
  warnings: string[];
}

/** A rule's verdict before the registry adds weight, source and the recommendation's emptiness. */
export interface Outcome {
  pass: boolean;
  value: unknown;
  message: string;
  recommendation: string;
  applicable?: boolean;
  items?: SeoItem[];
  warnings?: string[];
}

/** A check with nothing to look at passes, as Lighthouse's not-applicable audits do. */
export const notApplicable = (value: unknown, message: string): Outcome => ({
  pass: true,
  applicable: false,
  value,
  message,
  recommendation: '',
});
