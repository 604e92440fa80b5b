import { startTestService, type TestService } from '../../support/service.js';
import { startGithubStandIn, type StandInOptions } from './github-stand-in.js';

export interface ActionTestbed {
  /** The running API (its GitHub mode talks to the stand-in). */
  svc: TestService;
  gh: Awaited<ReturnType<typeof startGithubStandIn>>;
  /** A business key: 60 calls a minute, enough for a file of action runs. */
  key: string;
  close(): Promise<void>;
}

/** What every action test runs against: the real API, the GitHub stand-in, and a key. */
export async function actionTestbed(standIn: StandInOptions = {}): Promise<ActionTestbed> {
  const gh = await startGithubStandIn(standIn);
  const svc = await startTestService({ GITHUB_API_URL: gh.url });
  const key = await svc.newKey('business');
  return {
    svc,
    gh,
    key,
    async close() {
      await svc.close();
      await gh.close();
    },
  };
}
