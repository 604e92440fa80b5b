import http from 'node:http';
import express from 'express';
import { createApp } from './api/app.js';
import { composeService } from './compose.js';
import { createConfig } from './config.js';
import { drainable, type Drainable } from './http-drain.js';
import { createLogger } from './log.js';
import { chromiumVersion, listenFailure, startupFacts } from './startup.js';
import { probeRouter } from './probes.js';
import { pause } from './time-bounds.js';
import { createWorkers } from './workers/index.js';

type Mode = 'serve' | 'api' | 'worker';

/**
 * Entry point. `serve` (default): API and workers in one process; `api`: HTTP only;
 * `worker`: background jobs only, with its probes and metrics on WORKER_PORT. All processes
 * share one Redis. Run node itself as the process that gets signals
 * (`node --import tsx server/main.ts serve`), not an npm wrapper.
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
  const { deps } = service;
  const facts = await startupFacts(config, service.redisHandle.label, deps.http.policy, chromium);
  const workers = mode === 'api' ? undefined : createWorkers(deps, service.redisHandle.workerConnection);
  const server = http.createServer();
  const requests: Drainable = drainable(server);
  if (mode === 'worker') {
    const probes = express();
    probes.use(probeRouter(deps));
    probes.get('/metrics', async (_req, res) => {
      res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
    });
    server.on('request', probes);
  } else {
    server.on('request', createApp(deps));
  }
  // A worker serves only its probes and metrics, on a port of its own.
  const listenOn = mode === 'worker' ? { setting: 'WORKER_PORT', port: config.WORKER_PORT, host: config.HOST } : { setting: 'PORT', port: config.PORT, host: config.HOST };
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
    server.listen(listenOn.port, listenOn.host);
  }).catch(async (err: unknown) => {
    console.error(listenFailure(err, listenOn));
    await workers?.close(0);
    await service.close();
    process.exit(1);
  });
  const port = (server.address() as { port: number }).port;
  if (mode === 'worker') {
    log.info({ mode, port, ...facts }, 'worker started');
  } else {
    log.info({ mode, url: config.baseUrl, port, ...facts }, 'service listening');
    // Compile the 7,540 fingerprints now (~0.3 s of blocked loop) rather than in a first request.
    void deps.techDetector.ready().catch((err: unknown) => log.warn({ err }, 'fingerprint data unavailable; run scripts/fetch-fingerprints.sh'));
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const delayMs = config.SHUTDOWN_DELAY_MS;
    const drainMs = config.SHUTDOWN_DRAIN_MS;
    // /readyz answers 503 from now on, so traffic leaves before the listener closes.
    deps.lifecycle.draining = true;
    log.info({ signal, delayMs, drainMs }, 'shutting down: draining requests and jobs');
    // Whatever hangs in the closing below, the process is gone shortly after the drain.
    setTimeout(() => {
      log.error('shutdown overran its drain; exiting');
      process.exit(1);
    }, delayMs + drainMs + 5_000).unref();
    if (delayMs) await pause(delayMs);
    // Requests and jobs drain side by side; running jobs past the drain go back to the queue.
    const [inTime] = await Promise.all([requests.drain(drainMs), workers?.close(drainMs)]);
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
