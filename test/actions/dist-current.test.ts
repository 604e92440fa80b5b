import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name), base) : [path.relative(base, path.join(dir, e.name))])),
  );
  return nested.flat().sort();
}

describe('dist/ (the committed action bundles)', function () {
  this.timeout(120_000);

  it('equals a fresh build byte for byte (run npm run build:actions when this fails)', async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'dist-check-'));
    try {
      await run(process.execPath, ['scripts/build-actions.mjs', '--out', out]);
      const fresh = await listFiles(out);
      expect(await listFiles('dist')).to.deep.equal(fresh);
      for (const file of fresh) {
        const [built, committed] = await Promise.all([readFile(path.join(out, file)), readFile(path.join('dist', file))]);
        expect(committed.equals(built), `dist/${file} is stale: run npm run build:actions`).to.equal(true);
      }
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});

/** `inputs:` keys of an action.yml and the INPUT_* variables its step passes (composite steps get none by themselves). */
async function inputsAndEnv(file: string) {
  const text = await readFile(file, 'utf8');
  const inputsBlock = /^inputs:\n([\s\S]*?)^\S/m.exec(text)?.[1] ?? '';
  const inputs = [...inputsBlock.matchAll(/^ {2}(\w+):/gm)].map((m) => m[1]);
  const env = [...text.matchAll(/^ +INPUT_(\w+): \$\{\{ inputs\.(\w+) \}\}$/gm)].map((m) => {
    expect(m[1], `${file}: INPUT_${m[1]} must carry inputs.${m[1].toLowerCase()}`).to.equal(m[2].toUpperCase());
    return m[2];
  });
  return { inputs: inputs.sort(), env: env.sort() };
}

describe('action.yml files', () => {
  for (const [file, extra] of [
    ['actions/deadlinks/action.yml', []],
    ['actions/screenshot-diff/action.yml', []],
    ['action.yml', ['check']],
  ] as const) {
    it(`${file} passes every input to the bundle as INPUT_*`, async () => {
      const { inputs, env } = await inputsAndEnv(file);
      expect(inputs.length).to.be.greaterThan(5);
      expect(inputs).to.deep.equal([...env, ...extra].sort());
    });
  }

  it('the suite entry offers the union of both actions\' inputs', async () => {
    const suite = (await inputsAndEnv('action.yml')).inputs;
    const both = [...(await inputsAndEnv('actions/deadlinks/action.yml')).inputs, ...(await inputsAndEnv('actions/screenshot-diff/action.yml')).inputs];
    expect(suite).to.include.members([...new Set(both)]);
  });
});
