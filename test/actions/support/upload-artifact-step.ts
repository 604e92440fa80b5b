/**
 * What actions/upload-artifact@v7 does with `path` (one file) and `archive: false`, by the
 * same library (@actions/artifact) and with the same outputs, so the action's composite
 * upload step runs in the tests against the loopback results service.
 */
import { DefaultArtifactClient } from '@actions/artifact';
import * as core from '@actions/core';
import path from 'node:path';

try {
  const file = core.getInput('path', { required: true });
  const archive = core.getInput('archive') !== 'false';
  const name = archive ? core.getInput('name') || 'artifact' : path.basename(file);
  const { id, digest } = await new DefaultArtifactClient().uploadArtifact(name, [file], path.dirname(file), { skipArchive: !archive });
  core.setOutput('artifact-id', id);
  core.setOutput('artifact-digest', digest);
  core.setOutput('artifact-url', `${process.env.GITHUB_SERVER_URL}/${process.env.GITHUB_REPOSITORY}/actions/runs/${process.env.GITHUB_RUN_ID}/artifacts/${id}`);
} catch (err) {
  core.setFailed((err as Error).message);
}
