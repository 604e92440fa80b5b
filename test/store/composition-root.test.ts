import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

describe('composition root', () => {
  const dir = 'server/api/routes';
  const routers = fs.readdirSync(dir).filter((f) => f.endsWith('.ts'));

  it('routers construct no Redis client, queue or store: they get them from server/compose.ts through deps', () => {
    const offenders = routers.flatMap((file) => {
      const src = fs.readFileSync(path.join(dir, file), 'utf8');
      const found = [...src.matchAll(/new\s+(Redis|Queue|Worker|\w+Store|\w+Cache)\s*\(/g)].map((m) => `${file}: new ${m[1]}(`);
      if (/from 'ioredis'|from 'bullmq'/.test(src)) found.push(`${file}: imports a Redis or BullMQ client`);
      return found;
    });
    expect(offenders).to.deep.equal([]);
  });

  it('domain folders and workers import nothing from server/api/', () => {
    // openapi/ builds the documents of the API's own routes: it is the API's, not a domain.
    const domains = fs.readdirSync('server', { withFileTypes: true }).filter((d) => d.isDirectory() && !['api', 'openapi'].includes(d.name)).map((d) => d.name);
    const offenders = domains.flatMap((d) => files(path.join('server', d)).filter((f) => /from '(\.\.\/)+api\//.test(fs.readFileSync(f, 'utf8'))));
    expect(offenders).to.deep.equal([]);
  });
});

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}
