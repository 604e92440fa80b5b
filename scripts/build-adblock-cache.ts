/**
 * Builds the ad-block engine from the packaged filter lists into a folder, ahead of time:
 * `node --import tsx scripts/build-adblock-cache.ts DIR [--slim-lists]`. The container
 * image runs it at build, so its first render does not spend 3 s compiling the lists, and
 * keeps only the lists the engine uses, gzip'd.
 */
import { buildAdBlockCache } from '../server/render/ad-blocker.js';

const [dir, flag] = process.argv.slice(2);
if (!dir || (flag && flag !== '--slim-lists')) {
  console.error('usage: node --import tsx scripts/build-adblock-cache.ts DIR [--slim-lists]');
  process.exit(2);
}
await buildAdBlockCache(dir, { slimLists: flag === '--slim-lists' });
console.log(`ad-block engine cached in ${dir}`);
