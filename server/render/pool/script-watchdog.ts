import type { CDPSession } from 'puppeteer-core';
import { timeBound, withTimeout } from '../../time-bounds.js';
import { ScriptBudgetError } from './pool-errors.js';

/** How often the page's renderer is asked for its metrics. */
const TICK_MS = 250;

/**
 * Whether the page's main frame waits for the network: from its navigation request until the
 * target answered (or the request failed, or the frame committed). `epoch` moves at each of
 * these, so a probe sent before one of them is known to be stale.
 */
export interface MainNavigation {
  readonly pending: boolean;
  readonly epoch: number;
}

export interface ScriptWatchdog {
  /** Rejects with ScriptBudgetError when the page used up its budget (never resolves). */
  readonly tripped: Promise<never>;
  /** True from the moment the budget is found spent (before the script is stopped). */
  readonly fired: boolean;
  /** Starts the budget afresh from the script the page has run so far (a tab reused for the next page). */
  restart(): Promise<void>;
  /** Stops stopping the page's script (idempotent). */
  stop(): Promise<void>;
  /** Ends the watch; the page is left as it is. */
  dispose(): void;
}

/**
 * Holds a page to a script budget, in the renderer itself rather than around the promise.
 * Two probes: `Performance.getMetrics`, answered off the main thread, tells how much script
 * the page ran (`ScriptDuration`, counted as tasks end); `Runtime.evaluate` of a constant runs
 * on the main thread, so it goes unanswered while a script never yields (an endless loop).
 *
 * Only the renderer's own time counts. Chromium holds DevTools messages for a frame while its
 * navigation waits for the network (a target that never answers, a slow first byte), so an
 * unanswered probe means nothing then: silence is counted only while no main-frame navigation
 * waits, and at most one tick's worth per tick, so a stall of this process's event loop (a
 * busy machine, a Redis reconnect storm) is not taken for the page's.
 *
 * Past the budget on either probe, the script is terminated (`Runtime.terminateExecution`
 * interrupts V8 from another thread), further script is disabled, and a renderer that still
 * does not answer is crashed, so its core is free at once.
 */
export function watchScript(cdp: CDPSession, budgetMs: number, navigation: MainNavigation): ScriptWatchdog {
  let disposed = false;
  let fired = false;
  let timer: NodeJS.Timeout | undefined;
  let baseline = 0;
  /** The responsiveness probe in flight, and the navigation epoch it was sent in. */
  let probe: { epoch: number } | undefined;
  /** How long the main thread has been silent, counted as described above. */
  let silentMs = 0;
  let lastTick = Date.now();
  let trip!: (err: Error) => void;
  const tripped = new Promise<never>((_, reject) => (trip = reject));
  tripped.catch(() => undefined); // read by whoever races it; unread when the render ends first

  const scriptMs = () =>
    timeBound(
      cdp.send('Performance.getMetrics').then(
        (r) => (r.metrics.find((m) => m.name === 'ScriptDuration')?.value ?? 0) * 1000,
        // After a navigation swapped the renderer process, its metrics may need enabling again.
        () => cdp.send('Performance.enable').then(() => 0, () => 0),
      ),
      budgetMs,
    ).then((ms) => ms ?? 0);

  const forgetProbe = () => {
    probe = undefined;
    silentMs = 0;
  };

  /** Sends a probe unless one is out; an answer, or a failure (the context went away), means alive. */
  const listen = () => {
    if (probe) return;
    const sent = { epoch: navigation.epoch };
    probe = sent;
    const answered = () => {
      if (probe === sent) forgetProbe();
    };
    cdp.send('Runtime.evaluate', { expression: '0', returnByValue: true }).then(answered, answered);
  };

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await bounded(cdp.send('Runtime.terminateExecution'), 1_000).catch(() => undefined);
      const disabled = await bounded(cdp.send('Emulation.setScriptExecutionDisabled', { value: true }), 1_000).then(
        () => true,
        () => false,
      );
      // A renderer that cannot even take that is stuck for good: crash it (served on its IO thread).
      if (!disabled) await bounded(cdp.send('Page.crash'), 1_000).catch(() => undefined);
    })());

  const tick = async () => {
    if (disposed) return;
    const started = Date.now();
    const elapsed = Math.min(started - lastTick, 2 * TICK_MS);
    lastTick = started;
    if (navigation.pending || (probe && probe.epoch !== navigation.epoch)) forgetProbe();
    else if (probe) silentMs += elapsed;
    if (!navigation.pending) listen();
    const spent = await scriptMs();
    if (disposed) return;
    if (silentMs <= budgetMs && spent - baseline <= budgetMs) {
      timer = setTimeout(tick, Math.max(0, TICK_MS - (Date.now() - started)));
      timer.unref();
      return;
    }
    fired = true;
    await stop();
    trip(new ScriptBudgetError(budgetMs));
  };

  void cdp.send('Performance.enable').then(tick, () => undefined);

  return {
    tripped,
    get fired() {
      return fired;
    },
    stop,
    async restart() {
      baseline = await scriptMs();
      forgetProbe();
    },
    dispose() {
      disposed = true;
      clearTimeout(timer);
    },
  };
}

class WatchTimeout extends Error {}

/** A CDP call bounded in time: WatchTimeout when the renderer did not answer. */
const bounded = <T>(call: Promise<T>, ms: number) => withTimeout(call, ms, () => new WatchTimeout());
