import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/**
 * The installed folder of an npm package, for data files it ships but does not export
 * (its `exports` map hides `package.json`): searched along Node's module paths.
 */
export function packageRoot(name: string): string {
  for (const dir of require.resolve.paths(name) ?? []) {
    const root = path.join(dir, name);
    if (fs.existsSync(path.join(root, 'package.json'))) return root;
  }
  throw new Error(`package ${name} is not installed`);
}
