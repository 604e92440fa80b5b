import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { settingNames } from '../../server/config.js';

describe('the deployment files name the service as it is', () => {
  it('.env.example lists every setting of server/config.ts, commented out with its default', async () => {
    const text = await readFile('.env.example', 'utf8');
    const listed = [...text.matchAll(/^#([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect([...settingNames].sort()).to.deep.equal([...listed].sort());
    // Nothing is set by copying it: an uncommented line would override the image's own paths.
    expect(text.split('\n').filter((l) => l.trim() && !l.startsWith('#'))).to.deep.equal([]);
  });

  it('compose.yaml passes only settings the service knows', async () => {
    const stack = parse(await readFile('compose.yaml', 'utf8'), { merge: true }) as { 'x-settings': Record<string, string> };
    expect(Object.keys(stack['x-settings']).filter((k) => !settingNames.includes(k))).to.deep.equal([]);
  });

  it('the release workflow builds the Dockerfile for amd64 and arm64 on a version tag, passing the build arguments the Dockerfile declares', async () => {
    const workflow = parse(await readFile('.github/workflows/release.yml', 'utf8')) as {
      on: { push: { tags: string[] } };
      permissions: Record<string, string>;
      jobs: { image: { steps: Array<{ uses?: string; with?: Record<string, string | boolean> }> } };
    };
    expect(workflow.on.push.tags).to.deep.equal(['v*.*.*']);
    expect(workflow.permissions).to.include({ packages: 'write' });
    const build = workflow.jobs.image.steps.find((s) => s.uses?.startsWith('docker/build-push-action@'));
    expect(build?.with?.platforms).to.equal('linux/amd64,linux/arm64');
    expect(build?.with?.push).to.equal(true);
    const dockerfile = await readFile('Dockerfile', 'utf8');
    const declared = new Set([...dockerfile.matchAll(/^ARG (\w+)/gm)].map((m) => m[1]));
    const passed = String(build?.with?.['build-args']).split('\n').map((l) => l.split('=')[0].trim()).filter(Boolean);
    expect(passed.filter((a) => !declared.has(a))).to.deep.equal([]);
  });
});
