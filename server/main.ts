import http from 'node:http';
import { createApp } from './api/app.js';
import { composeService } from './compose.js';
import { createConfig } from './config.js';
import { drainable, type Drainable } from './http-drain.js';
import { createLogger } from './log.js';
import { chromiumVersion, listenFailure, startupFacts } from './startup.js';
import { createWorkers } from './workers/index.js';

type Mode = 'serve' | 'api' | 'worker';

/**
 * Entry point. `serve` (default): API and workers in one process; `api`: HTTP only;
 * `worker`: background jobs only. All processes share one Redis. Run node itself as the
 * process that gets signals (`node --import tsx server/main.ts serve`), not an npm wrapper.
 */
async function main(mode: Mode) {
  let config;
  try {
    config = createConfig(process.env);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
  const log = createLogger(config.LOG_LEVEL);
  const chromium = chromiumVersion(config.CHROME_PATH);
  const service = await composeService(config, { log });
  const facts = await startupFacts(config, service.redisHandle.label, service.deps.http.policy, chromium);
  const workers = mode === 'api' ? undefined : createWorkers(service.deps, service.redisHandle.workerConnection);
  let requests: Drainable | undefined;
  if (mode !== 'worker') {
    const server = http.createServer();
    requests = drainable(server);
    server.on('request', createApp(service.deps));
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
      server.listen(config.PORT, config.HOST);
    }).catch(async (err: unknown) => {
      console.error(listenFailure(err, config));
      await workers?.close(0);
      await service.close();
      process.exit(1);
    });
    log.info({ mode, url: config.baseUrl, port: config.PORT, ...facts }, 'service listening');
    // Compile the 7,540 fingerprints now (~0.3 s of blocked loop) rather than in a first request.
    void service.deps.techDetector.ready().catch((err: unknown) => log.warn({ err }, 'fingerprint data unavailable; run scripts/fetch-fingerprints.sh'));
  } else {
    log.info({ mode, ...facts }, 'worker started');
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const drainMs = config.SHUTDOWN_DRAIN_MS;
    log.info({ signal, drainMs }, 'shutting down: draining requests and jobs');
    // Whatever hangs in the closing below, the process is gone shortly after the drain.
    setTimeout(() => {
      log.error('shutdown overran its drain; exiting');
      process.exit(1);
    }, drainMs + 5_000).unref();
    // Requests and jobs drain side by side; running jobs past the drain go back to the queue.
    const [inTime] = await Promise.all([requests?.drain(drainMs) ?? true, workers?.close(drainMs)]);
    if (!inTime) log.warn({ drainMs }, 'requests still running at the end of the drain were cut');
    await service.close();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

const mode = (process.argv[2] ?? 'serve') as Mode;
if (!['serve', 'api', 'worker'].includes(mode)) {
  console.error(`unknown mode ${mode}; use serve, api or worker`);
  process.exit(2);
}
main(mode).catch((err) => {
  console.error(err);
  process.exit(1);
});
