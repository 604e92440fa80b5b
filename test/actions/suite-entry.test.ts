import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { runAction } from './support/run-action.js';

const outputsOf = async (file: string) => Object.keys((parse(await readFile(file, 'utf8')) as { outputs: Record<string, unknown> }).outputs);

const ctx = { repository: 'acme/site', githubApiUrl: 'http://127.0.0.1:9' };

describe('action.yml (suite entry), run as the runner runs a composite action', () => {
  it('check: screenshot-diff runs that bundle (which then reads its own inputs); nothing is handed to the publish step', async () => {
    const r = await runAction('.', { check: 'screenshot-diff', api_url: 'http://127.0.0.1:9', preview_url: 'http://127.0.0.1:9' }, ctx);
    expect(r.code).to.equal(1);
    expect(r.commands).to.deep.equal(['::error::input baseline_url is required']);
    expect([r.steps.upload.outcome, r.steps.publish.outcome]).to.deep.equal(['skipped', 'skipped']);
  });

  it('check: deadlinks runs that bundle', async () => {
    const r = await runAction('.', { check: 'deadlinks', api_url: 'http://127.0.0.1:9', url: 'http://127.0.0.1:9', mode: 'fast' }, ctx);
    expect(r.code).to.equal(1);
    expect(r.commands).to.deep.equal(['::error::input mode must be one of full, quick, got "fast"']);
  });

  it('check: preview-report runs that bundle', async () => {
    const r = await runAction('.', { check: 'preview-report', api_url: 'http://127.0.0.1:9', baseline_url: 'http://127.0.0.1:9', preview_url: 'http://127.0.0.1:9', checks: 'links,lighthouse' }, ctx);
    expect(r.code).to.equal(1);
    expect(r.commands).to.deep.equal(['::error::input checks: "lighthouse" is not a check; use links, seo, perf, techstack, tls, visual']);
    expect([r.steps.upload.outcome, r.steps.publish.outcome]).to.deep.equal(['skipped', 'skipped']);
  });

  it('has every output of each check it runs (the README promises the chosen check\'s own)', async () => {
    const suite = await outputsOf('action.yml');
    for (const check of ['deadlinks', 'screenshot-diff', 'preview-report']) {
      const missing = (await outputsOf(`actions/${check}/action.yml`)).filter((o) => !suite.includes(o));
      expect(missing, check).to.deep.equal([]);
    }
  });

  it('an unknown check fails naming the choices', async () => {
    const r = await runAction('.', { check: 'lighthouse', api_url: 'http://127.0.0.1:9' }, ctx);
    expect(r.code).to.equal(1);
    expect(r.commands).to.deep.equal(["::error::input check must be deadlinks, screenshot-diff or preview-report, got 'lighthouse'"]);
  });
});
