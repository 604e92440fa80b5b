/**
 * GET /api/usage with a key (Redis auth + limits + period counters) against a bare Express
 * handler, same machine, same load, one run. Prints requests/s, p50, p99 and the ratio.
 *   npm run bench -- api-overhead
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { freePort } from '../test/support/service.js';

const CONNECTIONS = 100;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);

async function waitFor(url: string) {
  for (let i = 0; i < 200; i++) {
    if (await fetch(url).then((r) => r.ok || r.status === 401, () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

async function load(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export async function run() {
  const servicePort = await freePort();
  const barePort = await freePort();
  const prefix = `bench-${Date.now()}:`;
  const service: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', 'api'], {
    env: { ...process.env, PORT: String(servicePort), HOST: '127.0.0.1', LOG_LEVEL: 'silent', REDIS_PREFIX: prefix, CHEAP_LIMIT_PER_MINUTE: '1000000000' },
    stdio: 'inherit',
  });
  const bare = fork('bench/support/bare-express.ts', { env: { ...process.env, PORT: String(barePort) }, execArgv: ['--import', 'tsx'] });
  try {
    await waitFor(`http://127.0.0.1:${servicePort}/api/health`);
    await waitFor(`http://127.0.0.1:${barePort}/api/usage`);
    const created = await (await fetch(`http://127.0.0.1:${servicePort}/api/keys`, { method: 'POST' })).json();
    const headers = { 'X-API-Key': created.api_key as string };

    await load(`http://127.0.0.1:${servicePort}/api/usage`, headers); // warm-up, not reported
    const ours = await load(`http://127.0.0.1:${servicePort}/api/usage`, headers);
    const baseline = await load(`http://127.0.0.1:${barePort}/api/usage`);

    console.log(`\napi-overhead: ${CONNECTIONS} connections, ${DURATION_S} s each, loopback`);
    console.table({
      'GET /api/usage (keyed: Redis auth + limits)': ours,
      'bare Express handler': baseline,
    });
    console.log(`ratio (ours / bare) requests/s: ${(ours.rps / baseline.rps).toFixed(2)}  p99: ${ours.p99} ms vs ${baseline.p99} ms`);
  } finally {
    service.kill('SIGTERM');
    bare.kill('SIGTERM');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
