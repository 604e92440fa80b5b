/**
 * The container image's figures, as a user meets them: its size, and from `docker run` (a
 * fresh container, embedded Redis on a new volume, read-only root) to /api/health answering
 * 200, to a first screenshot (of the service's own docs page), and from SIGTERM to exit 0.
 * Medians of RUNS starts (default 5). Needs Docker (`./run test` sets it up) and builds the
 * image as the tests do.
 *   npm run bench -- container
 */
import crypto from 'node:crypto';
import os from 'node:os';
import { answers200, buildTestImage, docker, runContainer } from '../test/deploy/support/docker.js';
import { freePort } from '../test/support/service.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run() {
  const image = await buildTestImage();
  const [inspect] = JSON.parse(await docker(['image', 'inspect', image])) as Array<{ Size: number }>;
  const runs = Number(process.env.RUNS ?? 5);
  const health: number[] = [];
  const shot: number[] = [];
  const stop: number[] = [];
  for (let i = 0; i < runs; i++) {
    const port = await freePort();
    const volume = `sitelens-bench-${crypto.randomBytes(4).toString('hex')}`;
    const started = Date.now();
    const c = await runContainer(['-p', `127.0.0.1:${port}:8080`, '--read-only', '--tmpfs', '/tmp', '-v', `${volume}:/data`, '-e', 'ALLOW_PRIVATE_TARGETS=127.0.0.1/32', image]);
    try {
      const base = `http://127.0.0.1:${port}`;
      health.push(await answers200(`${base}/api/health`, started));
      const res = await fetch(`${base}/api/screenshot?url=${encodeURIComponent('http://127.0.0.1:8080/')}&full_page=false`);
      if (res.status !== 200) throw new Error(`screenshot answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      shot.push(Date.now() - started);
      const stopping = Date.now();
      const code = await c.stop(30);
      if (code !== 0) throw new Error(`exit code ${code} after SIGTERM`);
      stop.push(Date.now() - stopping);
    } finally {
      await c.remove();
      await docker(['volume', 'rm', '-f', volume]);
    }
  }
  console.log(`machine: ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`image size: ${(inspect.Size / 1e9).toFixed(3)} GB (goal ≤ 1 GB)`);
  console.log(`docker run → /api/health 200: median ${median(health)} ms of ${runs} (${health.join(', ')}) (goal ≤ 10 s)`);
  console.log(`docker run → first screenshot: median ${median(shot)} ms (${shot.join(', ')}) (goal ≤ 15 s)`);
  console.log(`SIGTERM → exit 0 (idle): median ${median(stop)} ms (${stop.join(', ')}) (goal: within SHUTDOWN_DRAIN_MS, 10 s)`);
}
