import type { TechCase } from '../support/techstack-cases.js';
import { metaCases, scriptSrcCases, scriptsCases, htmlCases, urlCases } from './document.js';
import { cookieCases, headerCases } from './headers-cookies.js';
import { domCases, jsCases } from './js-dom.js';
import { excludesCases, impliesCases, requiresCases } from './resolution.js';
import { cssCases, textCases, xhrCases } from './text-css-xhr.js';
import { confidenceCases, versionCases } from './versions.js';

/** One table per rule type of the format, run by the tests and compared with the engine by the bench. */
export const ruleTables: Array<{ unit: string; cases: TechCase[] }> = [
  { unit: '`headers` rules', cases: headerCases },
  { unit: '`cookies` rules', cases: cookieCases },
  { unit: '`meta` rules', cases: metaCases },
  { unit: '`scriptSrc` rules', cases: scriptSrcCases },
  { unit: '`scripts` rules', cases: scriptsCases },
  { unit: '`html` rules', cases: htmlCases },
  { unit: '`url` rules', cases: urlCases },
  { unit: '`js` rules (globals, read in the browser)', cases: jsCases },
  { unit: '`dom` rules (cheerio when fetched, Chromium when rendered)', cases: domCases },
  { unit: '`text` rules (the visible text)', cases: textCases },
  { unit: '`css` rules (style sheets)', cases: cssCases },
  { unit: '`xhr` rules (hosts the page called, read in the browser)', cases: xhrCases },
  { unit: '`implies`', cases: impliesCases },
  { unit: '`excludes`', cases: excludesCases },
  { unit: '`requires` and `requiresCategory`', cases: requiresCases },
  { unit: '`\\;version:` templates', cases: versionCases },
  { unit: '`\\;confidence:`', cases: confidenceCases },
];
