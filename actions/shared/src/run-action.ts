import * as core from '@actions/core';

/** The action's top-level catch: a failed step with the cause, API errors with the API's message. */
export function runAction(main: () => Promise<void>): void {
  // async: a synchronous throw (a bad input in readSettings) becomes a rejection too.
  (async () => main())().catch((err: unknown) => {
    core.setFailed(err instanceof Error ? err.message : String(err));
  });
}
