import axe from 'axe-core';
import { notApplicable, type Outcome, type SeoItem } from '../check-result.js';
import type { ImageElement, PageArtifacts } from '../page-artifacts.js';

/* axe-core's own ARIA tables: which roles exist, which need a name, which attributes are global. */
const standards = axe.utils.getStandards();
const GLOBAL_ARIA = Object.entries(standards.ariaAttrs).filter(([, def]) => def.global).map(([name]) => name);
const PRESENTATIONAL = ['presentation', 'none'];

/** axe's `getExplicitRole`: the whole trimmed, lower-cased `role` when it names a concrete ARIA role. */
function explicitRole(img: ImageElement): string | null {
  const role = (img.attribs.role ?? '').trim().toLowerCase();
  const def = standards.ariaRoles[role];
  return def && def.type !== 'abstract' && !role.startsWith('doc-') ? role : null;
}

/** axe's `isFocusable` for an `<img>`: not natively focusable, so only a parseable tabindex makes it so. */
const isFocusable = (img: ImageElement) => /^\s*[-+]?\d+/.test(img.attribs.tabindex ?? '');

const hasGlobalAria = (img: ImageElement) => GLOBAL_ARIA.some((attr) => img.attribs[attr] !== undefined);

/** axe's `getRole`: an explicit presentational role yields to the implicit one when global ARIA or focus conflict. */
function role(img: ImageElement): string {
  const explicit = explicitRole(img);
  if (explicit && !PRESENTATIONAL.includes(explicit)) return explicit;
  if (explicit && !hasGlobalAria(img) && !isFocusable(img)) return explicit;
  const emptyAlt = img.attribs.alt !== undefined && !img.attribs.alt;
  return emptyAlt && !hasGlobalAria(img) && !isFocusable(img) ? 'presentation' : 'img';
}

/** axe's `no-explicit-name-required-matches`: an image with a role that needs no name is left to other rules. */
function inScope(img: ImageElement): boolean {
  const explicit = explicitRole(img);
  if (!explicit || PRESENTATIONAL.includes(explicit)) return true;
  // axe's role table has `accessibleNameRequired`; its typings leave it out.
  const def = standards.ariaRoles[explicit] as axe.AriaRoles & { accessibleNameRequired?: boolean };
  return Boolean(def?.accessibleNameRequired) || isFocusable(img);
}

/** axe's image-alt checks: why the image has no text alternative, or undefined when it has one. */
function missingAlternative(img: ImageElement): string | undefined {
  const presentational = PRESENTATIONAL.includes(role(img));
  const alt = img.attribs.alt;
  if (alt !== undefined && /^\s+$/.test(alt) && !presentational) return 'alt contains only spaces';
  const named =
    alt !== undefined ||
    Boolean(img.attribs['aria-label']?.trim()) ||
    Boolean(img.labelledbyText) ||
    (Boolean(img.attribs.title?.trim()) && !presentational) ||
    presentational;
  return named ? undefined : 'Element does not have an alt attribute, aria-label, aria-labelledby, a title or role="presentation"/"none"';
}

/**
 * Lighthouse's image-alt, which is axe-core's rule: each `<img>` visible to assistive
 * technology needs `alt` (`alt=""` for decoration), `aria-label`, a resolvable
 * `aria-labelledby`, a `title`, or `role="presentation"`/`"none"`; `alt` of only spaces
 * fails. No such image is not applicable.
 */
export function imageAlt(a: PageArtifacts): Outcome {
  const audited = a.images.filter((img) => !img.hidden && inScope(img));
  if (audited.length === 0) return notApplicable({ total: a.images.length, missing_alt: 0, examples: [] }, 'no visible images to check');
  const items: SeoItem[] = audited.flatMap((img) => {
    const reason = missingAlternative(img);
    return reason ? [{ reason, element: img.element, url: img.attribs.src ?? '' }] : [];
  });
  return {
    pass: items.length === 0,
    value: { total: a.images.length, missing_alt: items.length, examples: items.slice(0, 5).map((i) => i.url || '(no src)') },
    message: `${items.length} of ${audited.length} image(s) without a text alternative`,
    recommendation: `Add alt text to ${items.length} image(s) (alt="" for decorative ones).`,
    items,
  };
}
