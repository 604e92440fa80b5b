// Removes from node_modules the packages that only a data-only dependency needs: the service
// reads files that package ships (e.g. @adguard/dnr-rulesets' filter lists) and never runs its
// code, so what its code depends on is dead weight in the image. Walks the production
// dependency graph from package.json, not following the data-only packages' own dependencies,
// and deletes every installed package it does not reach.
//   node deploy/docker/prune-data-only-deps.mjs @adguard/dnr-rulesets [...]
import fs from 'node:fs';
import path from 'node:path';

const dataOnly = new Set(process.argv.slice(2));
const root = process.cwd();
const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/** The folder Node would load `name` from, seen from the package in `fromDir`. */
function resolve(name, fromDir) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === root || dir === path.dirname(dir)) return undefined;
  }
}

const reached = new Set();
const visit = (dir) => {
  if (reached.has(dir)) return;
  reached.add(dir);
  const pkg = readJson(path.join(dir, 'package.json'));
  if (dataOnly.has(pkg.name)) return;
  const deps = { ...pkg.dependencies, ...pkg.optionalDependencies, ...pkg.peerDependencies };
  for (const name of Object.keys(deps)) {
    const found = resolve(name, dir);
    if (found) visit(found);
  }
};
visit(root);

/** Every installed package folder (scoped ones included, nested node_modules too). */
function* installed(dir) {
  const modules = path.join(dir, 'node_modules');
  if (!fs.existsSync(modules)) return;
  for (const entry of fs.readdirSync(modules)) {
    if (entry.startsWith('.')) continue;
    const names = entry.startsWith('@') ? fs.readdirSync(path.join(modules, entry)).map((n) => path.join(entry, n)) : [entry];
    for (const name of names) {
      const folder = path.join(modules, name);
      if (!fs.existsSync(path.join(folder, 'package.json'))) continue;
      yield folder;
      yield* installed(folder);
    }
  }
}

let removed = 0;
for (const folder of [...installed(root)]) {
  if (reached.has(folder) || !fs.existsSync(folder)) continue;
  fs.rmSync(folder, { recursive: true });
  removed++;
}
console.log(`removed ${removed} packages only ${[...dataOnly].join(', ')} depended on`);
