/**
 * The outcome of the composite action's `actions/upload-artifact` step, which runs between
 * the check and the publish steps: composite `run` steps get no ACTIONS_RUNTIME_TOKEN
 * (actions/runner#3046), so the bundle cannot upload by itself; a `uses:` step can.
 */
export type ArtifactUpload = { kind: 'uploaded'; url: string } | { kind: 'failed' } | { kind: 'none' };

/** What the publish step gets from the steps before it: action.yml sets these in its environment. */
export interface PublishInputs {
  /** The check step's saved outcome (its `state` output). */
  stateFile: string;
  upload: ArtifactUpload;
}

/** Read with the action's settings, from the publish step's environment. */
export function readPublishInputs(env: NodeJS.ProcessEnv): PublishInputs {
  return { stateFile: env.SITELENS_STATE ?? '', upload: readArtifactUpload(env) };
}

function readArtifactUpload(env: NodeJS.ProcessEnv): ArtifactUpload {
  const outcome = env.SITELENS_ARTIFACT_OUTCOME ?? '';
  const url = env.SITELENS_ARTIFACT_URL ?? '';
  if (outcome === 'success' && url) return { kind: 'uploaded', url };
  if (outcome === 'failure') return { kind: 'failed' };
  return { kind: 'none' };
}
