/**
 * Runs the benchmarks named on the command line (default: all), one after another.
 *   npm run bench                  every bench
 *   npm run bench -- api-overhead  one bench (file name in bench/ without .ts)
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = path.dirname(new URL(import.meta.url).pathname);
const all = fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'run.ts').map((f) => f.replace(/\.ts$/, ''));
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : all;
for (const name of chosen) {
  if (!all.includes(name)) throw new Error(`no bench named ${name}; have ${all.join(', ')}`);
  console.log(`\n=== ${name}`);
  const mod = (await import(pathToFileURL(path.join(dir, `${name}.ts`)).href)) as { run?: () => Promise<void> };
  if (mod.run) await mod.run();
}
process.exit(0);
