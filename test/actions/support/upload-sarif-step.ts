import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface SarifUploadStep {
  /** The `sarif_file` input: the action's `sarif` output, relative to the workspace. */
  sarifFile: string;
  workspace: string;
  token: string;
  /** GITHUB_API_URL. */
  apiUrl: string;
  repository: string;
  /** GITHUB_SHA and GITHUB_REF: on pull_request, the test merge commit and `refs/pull/N/merge`. */
  sha: string;
  ref: string;
}

/**
 * What github/codeql-action/upload-sarif sends after the workflow's check step: the log
 * gzipped and base64-encoded as `sarif`, with the commit and ref it describes and the
 * checkout's URI, to `POST /repos/{owner}/{repo}/code-scanning/sarifs`. Answers the upload's
 * id, which GitHub then processes (`GET …/sarifs/{id}`).
 */
export async function uploadSarif(step: SarifUploadStep): Promise<{ status: number; id?: string }> {
  const log = await readFile(path.resolve(step.workspace, step.sarifFile));
  const res = await fetch(`${step.apiUrl}/repos/${step.repository}/code-scanning/sarifs`, {
    method: 'POST',
    headers: { authorization: `token ${step.token}`, accept: 'application/vnd.github+json', 'content-type': 'application/json' },
    body: JSON.stringify({
      commit_sha: step.sha,
      ref: step.ref,
      sarif: gzipSync(log).toString('base64'),
      checkout_uri: `file://${step.workspace}`,
      tool_names: ['SiteLens'],
    }),
  });
  const body = (await res.json()) as { id?: string };
  return { status: res.status, id: body.id };
}
