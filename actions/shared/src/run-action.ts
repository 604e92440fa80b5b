import * as core from '@actions/core';
import type { ArtifactUpload, PublishInputs } from './upload-step.js';
import { SkipRun } from './preview-inputs.js';

/** The action's top-level catch: a failed step with the cause, API errors with the API's message. */
export function runAction(main: () => Promise<void>): void {
  // async: a synchronous throw (a bad input in readSettings) becomes a rejection too.
  (async () => main())().catch((err: unknown) => {
    // Nothing to check (a deployment that did not succeed): a notice and a green step.
    if (err instanceof SkipRun) return core.notice(err.message);
    core.setFailed(err instanceof Error ? err.message : String(err));
  });
}

/** What an action that uploads its report between two steps provides to `runPhases`. */
export interface PhasedAction<S extends { artifact: boolean; publish: PublishInputs }, O extends { reportFile?: string }, R> {
  readSettings(): S;
  checkPhase(s: S): Promise<O>;
  /** Writes the outcome for the publish step; its path becomes the `state` output. */
  saveOutcome(s: S, outcome: O): Promise<string>;
  readOutcome(file: string): Promise<O>;
  readReport(outcome: O): Promise<R | undefined>;
  publishPhase(s: S, outcome: O, report: R | undefined, upload: ArtifactUpload): Promise<void>;
}

/**
 * `check`: the API calls, the report written; `publish`: summary, comment, verdict (action.yml
 * runs actions/upload-artifact between the two, since a composite `run` step cannot upload).
 * Without a phase, both, with no upload.
 */
export function runPhases<S extends { artifact: boolean; publish: PublishInputs }, O extends { reportFile?: string }, R>(a: PhasedAction<S, O, R>): void {
  runAction(async () => {
    const s = a.readSettings();
    const phase = process.argv[2] ?? 'all';
    if (phase === 'check') {
      const outcome = await a.checkPhase(s);
      core.setOutput('report', outcome.reportFile ?? '');
      core.setOutput('upload', s.artifact && outcome.reportFile ? outcome.reportFile : '');
      return core.setOutput('state', await a.saveOutcome(s, outcome));
    }
    if (phase === 'publish') {
      const outcome = await a.readOutcome(s.publish.stateFile);
      return a.publishPhase(s, outcome, await a.readReport(outcome), s.publish.upload);
    }
    if (phase !== 'all') throw new Error(`unknown phase ${JSON.stringify(phase)}: check or publish`);
    const outcome = await a.checkPhase(s);
    return a.publishPhase(s, outcome, await a.readReport(outcome), { kind: 'none' });
  });
}
