import { expect } from 'chai';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => path.join(e.parentPath, e.name));
}

describe('actions/ sources (what they may reach)', () => {
  it("import nothing of the service's HTTP layer (server/api/): what both need lives in the domain modules", async () => {
    const offenders: string[] = [];
    for (const file of await sources('actions')) {
      const text = await readFile(file, 'utf8');
      for (const m of text.matchAll(/from '([^']+)'/g)) if (/(^|\/)server\/api\//.test(m[1])) offenders.push(`${file}: ${m[1]}`);
    }
    expect(offenders).to.deep.equal([]);
  });

  it('read process.env only in their settings (inputs parsed once)', async () => {
    const offenders: string[] = [];
    for (const file of await sources('actions')) {
      if (path.basename(file) === 'settings.ts') continue;
      const text = await readFile(file, 'utf8');
      if (text.includes('process.env')) offenders.push(file);
    }
    expect(offenders).to.deep.equal([]);
  });
});
