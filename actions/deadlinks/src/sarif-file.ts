import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { toSarif } from '../../../server/links/formats/sarif.js';
import type { DeadLinkReport } from '../../../server/links/report.js';

/**
 * Writes the (merged) report as a SARIF 2.1.0 log at `file`, relative to the workspace, for
 * github/codeql-action/upload-sarif, and answers that relative path (its `sarif_file`).
 * Written whatever the findings: an upload with no results is how code scanning closes the
 * alerts of links that were fixed.
 */
export async function writeSarif(report: DeadLinkReport, file: string, workspace: string): Promise<string> {
  const target = path.join(workspace, file);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, JSON.stringify(toSarif(report), null, 2) + '\n');
  return file;
}
