import * as core from '@actions/core';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Writes the JSON report where later steps can read it; returns its path. */
export async function writeReport(tempDir: string | undefined, name: string, report: unknown): Promise<string> {
  const file = path.join(tempDir ?? os.tmpdir(), name);
  await writeFile(file, JSON.stringify(report, null, 2) + '\n');
  return file;
}

export async function writeSummary(markdown: string): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return core.info(markdown); // run outside Actions
  await core.summary.addRaw(markdown, true).write();
}
