/**
 * GET /api/usage with a key (Redis auth + limits + period counters) against a bare Express
 * handler, same machine, same load, one run. Prints requests/s, p50, p99 and the ratio.
 *   npm run bench -- api-overhead
 */
import { execFile, fork, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
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

/**
 * wrk (Debian's, written in C) when installed: it leaves more of the two cores to the
 * servers than autocannon, which runs in this Node process. autocannon otherwise.
 */
const useWrk = fs.existsSync('/usr/bin/wrk');

async function load(url: string, headers: Record<string, string> = {}) {
  if (useWrk) {
    const args = ['-t1', `-c${CONNECTIONS}`, `-d${DURATION_S}s`, '--latency', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), url];
    const { stdout } = await promisify(execFile)('/usr/bin/wrk', args);
    const ms = (label: string) => {
      const m = new RegExp(`${label}\\s+([\\d.]+)(us|ms|s)`).exec(stdout);
      if (!m) return NaN;
      return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1);
    };
    const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
    return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]), p50: ms('50%'), p99: ms('99%'), non2xx, errors: 0 };
  }
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

    console.log(`\napi-overhead: ${useWrk ? 'wrk' : 'autocannon'}, ${CONNECTIONS} connections, ${DURATION_S} s each, loopback`);
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
