import type { CDPSession } from 'puppeteer-core';
import { withTimeout } from '../../time-bounds.js';
import { ScriptBudgetError } from './pool-errors.js';

/** How often the page's renderer is asked for its metrics. */
const TICK_MS = 250;

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
 * Two probes a tick: `Runtime.evaluate` of a constant runs on the renderer's main thread, so
 * it goes unanswered while a script never yields (an endless loop); `Performance.getMetrics`
 * is answered off that thread and tells how much script the page ran (`ScriptDuration`,
 * counted as tasks end). Past the budget on either, the script is terminated
 * (`Runtime.terminateExecution` interrupts V8 from another thread), further script is
 * disabled, and a renderer that still does not answer is crashed, so its core is free at once.
 */
export function watchScript(cdp: CDPSession, budgetMs: number): ScriptWatchdog {
  let disposed = false;
  let fired = false;
  let timer: NodeJS.Timeout | undefined;
  let baseline = 0;
  let trip!: (err: Error) => void;
  const tripped = new Promise<never>((_, reject) => (trip = reject));
  tripped.catch(() => undefined); // read by whoever races it; unread when the render ends first

  /** True when the main thread did not answer within the budget; failures (a navigation under way) count as alive. */
  const hung = () =>
    bounded(cdp.send('Runtime.evaluate', { expression: '0', returnByValue: true }), budgetMs).then(
      () => false,
      (err: unknown) => err instanceof WatchTimeout,
    );
  const scriptMs = () =>
    cdp.send('Performance.getMetrics').then(
      (r) => (r.metrics.find((m) => m.name === 'ScriptDuration')?.value ?? 0) * 1000,
      // After a navigation swapped the renderer process, its metrics may need enabling again.
      () => cdp.send('Performance.enable').then(() => 0, () => 0),
    );

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
    const [stuck, spent] = await Promise.all([hung(), scriptMs()]);
    if (disposed) return;
    if (!stuck && spent - baseline <= budgetMs) {
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
