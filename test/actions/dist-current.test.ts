import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';

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

interface ActionYml {
  inputs: Record<string, unknown>;
  runs: { steps: Array<{ id?: string; run?: string; env?: Record<string, string> }> };
}

/** `inputs:` keys of an action.yml and, per step that runs a bundle, the INPUT_* variables it passes (composite steps get none by themselves). */
async function inputsAndSteps(file: string) {
  const yml = parse(await readFile(file, 'utf8')) as ActionYml;
  const bundleSteps = yml.runs.steps.filter((st) => st.run?.includes('dist/'));
  const steps = bundleSteps.map((st) => {
    const env = Object.entries(st.env ?? {}).filter(([k]) => k.startsWith('INPUT_'));
    for (const [k, v] of env) expect(v, `${file}: ${k} must carry inputs.${k.slice(6).toLowerCase()}`).to.equal(`\${{ inputs.${k.slice(6).toLowerCase()} }}`);
    return { id: st.id ?? '', env: env.map(([k]) => k.slice(6).toLowerCase()).sort() };
  });
  return { inputs: Object.keys(yml.inputs).sort(), steps };
}

describe('action.yml files', () => {
  for (const [file, extra] of [
    ['actions/deadlinks/action.yml', []],
    ['actions/screenshot-diff/action.yml', []],
    ['actions/preview-report/action.yml', []],
    ['action.yml', ['check']],
  ] as const) {
    it(`${file}: every step that runs a bundle passes every input as INPUT_*`, async () => {
      const { inputs, steps } = await inputsAndSteps(file);
      expect(inputs.length).to.be.greaterThan(5);
      expect(steps.length).to.be.greaterThan(0);
      for (const st of steps) expect([...st.env, ...extra].sort(), `step ${st.id}`).to.deep.equal(inputs);
    });
  }

  it('the suite entry offers the union of the actions\' inputs', async () => {
    const suite = (await inputsAndSteps('action.yml')).inputs;
    const both = [
      ...(await inputsAndSteps('actions/deadlinks/action.yml')).inputs,
      ...(await inputsAndSteps('actions/screenshot-diff/action.yml')).inputs,
      ...(await inputsAndSteps('actions/preview-report/action.yml')).inputs,
    ];
    expect(suite).to.include.members([...new Set(both)]);
  });
});
