#!/usr/bin/env node
/**
 * Bundles each action's entry point with @vercel/ncc into dist/<action>/index.js (plus
 * licenses.txt, and the package.json ncc writes to mark the bundle an ES module), the form GitHub runs: no node_modules in the action's checkout.
 *
 *   node scripts/build-actions.mjs             writes dist/
 *   node scripts/build-actions.mjs --out DIR   writes DIR instead (test/actions/dist-current.test.ts)
 *
 * Deterministic: no cache, no source maps, no minification, no timestamps; paths in the
 * bundle are relative to the repository, so the output depends only on the sources.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ncc from '@vercel/ncc';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const entries = {
  deadlinks: 'actions/deadlinks/src/main.ts',
  'screenshot-diff': 'actions/screenshot-diff/src/main.ts',
  'preview-report': 'actions/preview-report/src/main.ts',
};

const outIndex = process.argv.indexOf('--out');
const outDir = outIndex > 0 ? path.resolve(process.argv[outIndex + 1]) : path.join(root, 'dist');

for (const [name, entry] of Object.entries(entries)) {
  const { code, assets } = await ncc(path.join(root, entry), {
    cache: false,
    minify: false,
    sourceMap: false,
    license: 'licenses.txt',
    quiet: true,
    target: 'es2022',
    // tsc --noEmit type-checks; ncc's own check would re-check the whole project (40 s).
    transpileOnly: true,
  });
  const dir = path.join(outDir, name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'index.js'), code);
  for (const [file, asset] of Object.entries(assets)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), asset.source);
  }
  console.log(`dist/${name}/index.js: ${(code.length / 1024).toFixed(0)} KiB, ${Object.keys(assets).length} asset(s)`);
}
