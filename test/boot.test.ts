import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { freePort } from './support/service.js';
import { until } from './support/wait.js';

describe('booting the README way', function () {
  this.timeout(120_000);

  it('npm start, with PORT set, answers GET /api/health and shuts down gracefully on SIGTERM', async () => {
    const port = await freePort();
    const child = spawn('npm', ['start'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        REDIS_URL: process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? '',
        REDIS_PREFIX: `boot-${port}:`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    // 'close' waits for every process writing to the pipes: npm exits before the node it started.
    const exited = new Promise<void>((r) => child.once('close', () => r()));
    try {
      const health = await until('the service to answer /api/health', () => fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined), 60_000, 250).catch(
        (err: Error) => expect.fail(`${err.message}\n${output}`),
      );
      expect(health.status).to.equal(200);
      expect((await health.json()).status).to.equal('ok');
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
    }
    await exited;
    expect(output, 'graceful shutdown ran').to.include('"msg":"stopped"');
  });

  it('a bad setting stops the boot with a message naming the key', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env: { ...process.env, PORT: 'eighty' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).to.equal(2);
    expect(err).to.match(/Invalid configuration: PORT/);
  });
});
