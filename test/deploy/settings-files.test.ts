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

  it("the README's service-container workflow names the image, the port, the health check and the host the image test drives", async () => {
    const readme = await readFile('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('### In a workflow, with no deployment'));
    const snippet = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const workflow = parse(snippet) as {
      jobs: { links: { services: { sitelens: { image: string; ports: string[]; env: Record<string, string>; options: string } }; steps: Array<{ uses?: string; with?: Record<string, string> }> } };
    };
    const service = workflow.jobs.links.services.sitelens;
    expect(service.image).to.match(/^ghcr\.io\/sitelens\/sitelens:\d+$/);
    expect(service.ports).to.deep.equal(['8080:8080']);
    expect(Object.keys(service.env).filter((k) => !settingNames.includes(k))).to.deep.equal([]);
    expect(service.options).to.include('--add-host=host.docker.internal:host-gateway').and.include('/app/deploy/docker/healthcheck.mjs');
    expect(await readFile('deploy/docker/healthcheck.mjs', 'utf8')).to.include('/readyz');
    const step = workflow.jobs.links.steps.find((st) => st.uses?.startsWith('sitelens/sitelens/actions/deadlinks@'));
    expect(step?.with).to.include({ api_url: 'http://localhost:8080' });
    expect(step?.with?.url).to.match(/^http:\/\/host\.docker\.internal:\d+\/$/);
  });
});
