/**
 * Fault drill: injects faults into a running SiteLens deployment and prints what the
 * service did. Run it against staging, never against loopback-only assumptions:
 *
 *   node --import tsx scripts/fault-drill.ts --base-url https://api.example.com --key KEY \
 *     --stop-redis "systemctl stop redis-server" --start-redis "systemctl start redis-server" \
 *     --kill-worker "pkill -KILL -f 'main.ts worker'" --page-url https://example.com/
 *
 * Drills (all by default, or `--drills redis,worker,hostile`):
 * - redis: stops Redis with --stop-redis, calls endpoints that need it (503 + Retry-After
 *   expected, within a second) and health (degraded), starts it with --start-redis, and
 *   measures how soon each endpoint answers again.
 * - worker: queues --jobs screenshots of --page-url (with --webhook-url if given), runs
 *   --kill-worker once the first is processing, and follows every job to its end.
 * - hostile: four endless-loop renders with --key, then, once the server's /metrics shows
 *   them open or waiting in its browser pool, a normal screenshot by another caller, and how
 *   long it took next to one without the attack. The other caller is --other-key, or a free
 *   key the drill creates (POST /api/keys): with --key on both sides the figure would measure
 *   the attacker's own share, not fairness between callers.
 * The shell commands run here, on the drill's machine, exactly as given.
 */
import { execSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values: opt } = parseArgs({
  options: {
    'base-url': { type: 'string' },
    key: { type: 'string' },
    'other-key': { type: 'string' },
    drills: { type: 'string', default: 'redis,worker,hostile' },
    'stop-redis': { type: 'string' },
    'start-redis': { type: 'string' },
    'kill-worker': { type: 'string' },
    'page-url': { type: 'string', default: 'https://example.com/' },
    'webhook-url': { type: 'string' },
    jobs: { type: 'string', default: '4' },
    'timeout-s': { type: 'string', default: '120' },
  },
});

const base = (opt['base-url'] ?? '').replace(/\/+$/, '');
if (!base) {
  console.error('usage: node --import tsx scripts/fault-drill.ts --base-url URL [--key KEY] [--drills redis,worker,hostile] …');
  process.exit(2);
}
const timeoutMs = Number(opt['timeout-s']) * 1000;

interface Answer {
  status: number;
  ms: number;
  retryAfter: string | null;
  body: string;
}

async function call(path: string, init: RequestInit = {}): Promise<Answer> {
  const started = Date.now();
  try {
    const res = await fetch(base + path, { ...init, signal: AbortSignal.timeout(30_000) });
    const body = await res.text();
    return { status: res.status, ms: Date.now() - started, retryAfter: res.headers.get('retry-after'), body };
  } catch (err) {
    return { status: 0, ms: Date.now() - started, retryAfter: null, body: (err as Error).cause ? String((err as Error).cause) : String(err) };
  }
}

const keyed = (key = opt.key): Record<string, string> => (key ? { 'X-API-Key': key } : {});
const jsonPost = (body: unknown, key = opt.key): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...keyed(key) },
  body: JSON.stringify(body),
});

function say(drill: string, line: string) {
  console.log(`${drill.padEnd(7)}| ${line}`);
}

function describe(name: string, a: Answer): string {
  const error = a.body.startsWith('{') ? (JSON.parse(a.body) as { error?: string; status?: string }) : {};
  const what = error.error ? `: ${error.error}` : error.status ? ` status=${error.status}` : '';
  const retry = a.retryAfter ? ` Retry-After: ${a.retryAfter}` : '';
  return `${name} -> ${a.status || 'no answer'}${retry} (${a.ms} ms)${what.slice(0, 160)}`;
}

function run(drill: string, command: string | undefined, what: string): boolean {
  if (!command) {
    say(drill, `skipped: give --${what} to run this step`);
    return false;
  }
  say(drill, `running: ${command}`);
  execSync(command, { stdio: 'inherit', shell: '/bin/sh' });
  return true;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Renders open or waiting in the browser pool of the process that answers /metrics (behind
 * a load balancer, whichever one is reached); null when /metrics cannot be read.
 */
async function rendersInPool(): Promise<number | null> {
  const a = await call('/metrics');
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(a.body)?.[1]);
  const n = gauge('browser_pages_open') + gauge('browser_queue_length');
  return a.status === 200 && Number.isFinite(n) ? n : null;
}

async function redisDrill() {
  const d = 'redis';
  const probes: Record<string, () => Promise<Answer>> = {
    'POST /api/keys': () => call('/api/keys', { method: 'POST' }),
    'GET /api/perf': () => call(`/api/perf?url=${encodeURIComponent(opt['page-url'] ?? '')}`, { headers: keyed() }),
    ...(opt.key
      ? {
          'GET /api/usage': () => call('/api/usage', { headers: keyed() }),
          'GET /api/screenshot/status/x': () => call('/api/screenshot/status/drill-unknown-job', { headers: keyed() }),
        }
      : {}),
  };
  if (!run(d, opt['stop-redis'], 'stop-redis')) return;
  for (const [name, probe] of Object.entries(probes)) say(d, describe(name, await probe()));
  say(d, describe('GET /api/health', await call('/api/health')));
  if (!run(d, opt['start-redis'], 'start-redis')) return;
  const back = Date.now();
  for (const [name, probe] of Object.entries(probes)) {
    let a = await probe();
    while (a.status >= 500 || a.status === 0) {
      if (Date.now() - back > timeoutMs) break;
      await sleep(100);
      a = await probe();
    }
    say(d, `${describe(name, a)}; answering again ${Date.now() - back} ms after the start command returned`);
  }
}

async function workerDrill() {
  const d = 'worker';
  if (!opt.key) return say(d, 'skipped: give --key (a pro or business key) to queue jobs');
  const ids: string[] = [];
  for (let i = 0; i < Number(opt.jobs); i++) {
    const body = { url: opt['page-url'], format: 'png', ...(opt['webhook-url'] ? { webhook_url: opt['webhook-url'] } : {}) };
    const a = await call('/api/screenshot/queue', jsonPost(body));
    say(d, describe(`POST /api/screenshot/queue #${i + 1}`, a));
    if (a.status === 202) ids.push((JSON.parse(a.body) as { job_id: string }).job_id);
  }
  const status = async (id: string) => {
    const a = await call(`/api/screenshot/status/${id}`, { headers: keyed() });
    return a.status === 200 ? (JSON.parse(a.body) as { status: string; attempts: number; error: string | null; webhook: { state: string | null; delivered: boolean; attempts: unknown[] } | null }) : null;
  };
  const started = Date.now();
  while (ids.length && Date.now() - started < timeoutMs) {
    const states = await Promise.all(ids.map(status));
    if (states.some((s) => s?.status === 'processing')) break;
    await sleep(100);
  }
  run(d, opt['kill-worker'], 'kill-worker');
  const killedAt = Date.now();
  for (const id of ids) {
    let s = await status(id);
    const webhookDone = () => !opt['webhook-url'] || s?.webhook?.state === 'delivered' || s?.webhook?.state === 'failed';
    while (s && (!['completed', 'failed'].includes(s.status) || !webhookDone()) && Date.now() - killedAt < timeoutMs) {
      await sleep(250);
      s = await status(id);
    }
    const hook = s?.webhook ? `, webhook ${s.webhook.state} after ${s.webhook.attempts.length} attempt(s)` : '';
    say(d, `job ${id}: ${s?.status ?? 'unknown'} after ${s?.attempts ?? '?'} attempt(s)${s?.error ? ` (${s.error})` : ''}${hook}, ${Date.now() - killedAt} ms after the kill`);
  }
}

/** The second caller of the hostile drill: --other-key, or a fresh free key; never the attacker's own. */
async function otherCaller(d: string): Promise<string | undefined> {
  if (opt['other-key'] && opt['other-key'] !== opt.key) return opt['other-key'];
  if (opt['other-key']) say(d, '--other-key is --key: the fairness figure needs a second caller, so the drill makes one');
  const created = await call('/api/keys', { method: 'POST' });
  if (created.status !== 200) {
    say(d, describe('POST /api/keys (a key for the other caller)', created));
    return undefined;
  }
  say(d, 'created a free key for the other caller (POST /api/keys); give --other-key to use your own');
  return (JSON.parse(created.body) as { api_key: string }).api_key;
}

async function hostileDrill() {
  const d = 'hostile';
  if (!opt.key) return say(d, 'skipped: give --key (and --other-key for the second caller)');
  const other = await otherCaller(d);
  if (!other) return say(d, 'skipped: no second caller (give --other-key), so fairness between callers cannot be measured');
  const shot = () => call(`/api/screenshot?url=${encodeURIComponent(opt['page-url'] ?? '')}&full_page=false`, { headers: keyed(other) });
  const alone = await shot();
  say(d, describe('GET /api/screenshot alone', alone));
  const loop = '<!doctype html><script>while (true) {}</script>';
  const attacks = Array.from({ length: 4 }, () =>
    call('/api/html2image', { method: 'POST', headers: { 'content-type': 'text/html', ...keyed() }, body: loop }),
  );
  // The other caller asks once the attack holds the pool, as the pool itself counts it.
  let answered = 0;
  for (const a of attacks) void a.then(() => answered++);
  let inPool = await rendersInPool();
  while (inPool !== null && inPool < attacks.length && answered < attacks.length) {
    await sleep(50);
    inPool = await rendersInPool();
  }
  say(d, inPool === null ? 'could not read /metrics: the other caller asks without knowing the attack is in the pool' : `${inPool} renders open or waiting in the pool`);
  const during = await shot();
  say(d, describe('GET /api/screenshot during four endless-loop renders', during));
  say(d, `the attack delayed the other caller by ${during.ms - alone.ms} ms`);
  for (const [i, a] of (await Promise.all(attacks)).entries()) say(d, describe(`POST /api/html2image (endless loop) #${i + 1}`, a));
}

const drills: Record<string, () => Promise<void>> = { redis: redisDrill, worker: workerDrill, hostile: hostileDrill };
say('drill', describe('GET /api/health', await call('/api/health')));
for (const name of (opt.drills ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
  const drill = drills[name];
  if (!drill) {
    console.error(`unknown drill ${name}; use ${Object.keys(drills).join(', ')}`);
    process.exit(2);
  }
  await drill();
}
say('drill', describe('GET /api/health', await call('/api/health')));
