import { expect } from 'chai';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { freePort } from './support/service.js';
import { until } from './support/wait.js';
import { baseEnv, sharedRedisUrl, spawnService, stopService } from './faults/support/service-process.js';

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

  it('a port already in use stops the boot with one line naming the port and PORT, no stack', async () => {
    const taken = net.createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', 'api'], {
        env: { ...process.env, ...baseEnv(sharedRedisUrl()), PORT: String(port), HOST: '127.0.0.1' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      const code = await new Promise((r) => child.once('exit', r));
      expect(code).to.equal(1);
      expect(err).to.equal(`port ${port} is already in use (something else listens on 127.0.0.1:${port}); stop it, or start this one with PORT set to a free port (PORT=${port + 1})\n`);
    } finally {
      taken.close();
    }
  });

  it('the start-up log line names the Redis (without its password), Chromium and its version, private targets and the docs URL', async () => {
    const url = new URL(sharedRedisUrl());
    url.password = 'hunter2-secret';
    const service = await spawnService('api', baseEnv(url.toString(), { ALLOW_PRIVATE_TARGETS: 'false' }));
    try {
      const line = service.output().split('\n').find((l) => l.includes('"service listening"')) ?? '';
      const facts = JSON.parse(line) as Record<string, string>;
      expect(line).not.to.include('hunter2-secret');
      expect(facts.redis).to.equal(`redis://:***@${url.host}`);
      expect(facts.chromium).to.match(/^Chromium \d+\.\d+\.\d+\.\d+ \(\/\S+\)$/);
      expect(facts.private_targets).to.match(/^refused \(ALLOW_PRIVATE_TARGETS=true allows them/);
      expect(facts.docs).to.equal(`${service.url}/`);
    } finally {
      await stopService(service);
    }
  });
});
