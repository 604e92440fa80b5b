import type { Server } from 'node:http';
import { createApp } from './api/app.js';
import { composeService } from './compose.js';
import { createConfig } from './config.js';
import { createLogger } from './log.js';
import { createWorkers } from './workers/index.js';

type Mode = 'serve' | 'api' | 'worker';

/**
 * Entry point. `serve` (default): API and workers in one process; `api`: HTTP only;
 * `worker`: background jobs only. All processes share one Redis.
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
  const service = await composeService(config, { log });
  const workers = mode === 'api' ? undefined : createWorkers(service.deps, service.redisHandle.connection);
  let server: Server | undefined;
  if (mode !== 'worker') {
    const app = createApp(service.deps);
    server = app.listen(config.PORT, config.HOST);
    await new Promise<void>((resolve, reject) => {
      server!.once('listening', resolve);
      server!.once('error', reject);
    });
    log.info({ mode, url: config.baseUrl, port: config.PORT }, 'service listening');
    // Compile the 7,540 fingerprints now (~0.3 s of blocked loop) rather than in a first request.
    void service.deps.techDetector.ready().catch((err: unknown) => log.warn({ err }, 'fingerprint data unavailable; run scripts/fetch-fingerprints.sh'));
  } else {
    log.info({ mode }, 'worker started');
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    // Stop accepting, let in-flight requests finish, then close workers, browser and Redis.
    if (server) {
      server.closeIdleConnections();
      // A dead-link crawl may stream for two minutes; past 30 s, in-flight requests are cut.
      const cut = setTimeout(() => server!.closeAllConnections(), 30_000).unref();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
      clearTimeout(cut);
    }
    await workers?.close();
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
