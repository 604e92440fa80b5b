import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** Runs the root action.yml's shell step as the runner would, with the given env. */
async function runSuiteStep(env: Record<string, string>) {
  const yml = await readFile('action.yml', 'utf8');
  const script = /run: \|\n((?: {8}.*\n)+)/.exec(yml)?.[1].replace(/^ {8}/gm, '');
  if (!script) throw new Error('action.yml has no run block');
  return new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile('bash', ['-e', '-c', script], { env: { PATH: process.env.PATH ?? '', GITHUB_ACTION_PATH: path.resolve('.'), ...env } }, (err, stdout) =>
      resolve({ code: err ? Number(err.code) : 0, stdout }),
    );
  });
}

describe('action.yml (suite entry)', () => {
  it('check: screenshot-diff runs that bundle (which then reads its own inputs)', async () => {
    const r = await runSuiteStep({ SITELENS_CHECK: 'screenshot-diff', INPUT_PREVIEW_URL: 'http://127.0.0.1:9' });
    expect(r.code).to.equal(1);
    expect(r.stdout).to.include('::error::input baseline_url is required');
  });

  it('check: deadlinks runs that bundle', async () => {
    const r = await runSuiteStep({ SITELENS_CHECK: 'deadlinks', INPUT_URL: 'http://127.0.0.1:9', INPUT_MODE: 'fast' });
    expect(r.code).to.equal(1);
    expect(r.stdout).to.include('::error::input mode must be one of full, quick, got "fast"');
  });

  it('an unknown check fails naming the choices', async () => {
    const r = await runSuiteStep({ SITELENS_CHECK: 'lighthouse' });
    expect(r.code).to.equal(1);
    expect(r.stdout).to.include("::error::input check must be deadlinks or screenshot-diff, got 'lighthouse'");
  });
});
