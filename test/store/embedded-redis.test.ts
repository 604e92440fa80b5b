import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { startEmbedded } from '../../server/store/redis.js';

describe('embedded redis-server', () => {
  it('keeps data across a restart (AOF on) and stops with its owner', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-redis-'));
    const first = await startEmbedded(dir);
    const a = new Redis(first.connection);
    await a.set('greeting', 'kept');
    a.disconnect();
    const exited = new Promise((r) => first.child.once('exit', r));
    first.child.kill('SIGTERM');
    await exited;
    expect(fs.readdirSync(dir).join(' ')).to.match(/appendonly/);

    const second = await startEmbedded(dir);
    const b = new Redis(second.connection);
    expect(await b.get('greeting')).to.equal('kept');
    b.disconnect();
    second.child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
