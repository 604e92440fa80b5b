/**
 * A worker process that takes one screenshot job and never finishes it, standing in for a
 * worker that dies mid-render (the test SIGKILLs it). Same queue, prefix and lock settings
 * as the service's workers; prints `took <id>` when it holds the job.
 */
import { Worker } from 'bullmq';
import { screenshotKind } from '../../../server/jobs/screenshot-job.js';
import { createConfig } from '../../../server/config.js';
import { MAX_STALLS } from '../../../server/workers/stalls.js';

const config = createConfig(process.env);
const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const connection = url.protocol === 'unix:' ? { path: url.pathname } : { host: url.hostname, port: Number(url.port || 6379) };
new Worker(
  screenshotKind.queue,
  (job) => {
    console.log(`took ${job.id}`);
    return new Promise(() => undefined);
  },
  { connection: { ...connection, maxRetriesPerRequest: null }, prefix: `${config.REDIS_PREFIX}bull`, lockDuration: config.JOB_LOCK_MS, stalledInterval: config.JOB_STALLED_INTERVAL_MS, maxStalledCount: MAX_STALLS + 1 },
);
