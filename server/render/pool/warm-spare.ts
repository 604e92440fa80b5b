import type { TargetPolicy } from '../../net/target-policy.js';
import type { Browsers, Instance } from './browsers.js';
import type { Prepared } from './page-setup.js';
import type { FairSlots } from './slots.js';

/** A context + page made ahead of demand for one policy on one browser. */
export interface Spare {
  policy: TargetPolicy;
  inst: Instance;
  ready: Promise<Prepared>;
}

/**
 * One fresh context + page kept ready while a slot is idle, so a render skips the ~200 ms
 * Chromium spends creating them. The spare holds a slot (it counts against the cap), gives
 * it up to the first lease that needs one, and is never used twice.
 */
export class WarmSpare {
  private spare: Spare | undefined;

  constructor(
    private readonly slots: FairSlots,
    private readonly browsers: Browsers,
    private readonly enabled: boolean,
  ) {}

  get present(): boolean {
    return this.spare !== undefined;
  }

  /**
   * After a render, while a slot is free and nobody waits, prepares the next render's context
   * and page. Not during a render: on two cores the spare's creation slows the render as much
   * as it saves the next one (measured).
   */
  warm(policy: TargetPolicy, prepare: (inst: Instance) => Promise<Prepared>): void {
    if (!this.enabled || this.spare || !this.slots.idle()) return;
    const inst = this.browsers.ready();
    if (!inst || !this.slots.hold()) return;
    inst.leases++;
    const ready = prepare(inst);
    ready.catch(() => undefined);
    this.spare = { policy, inst, ready };
  }

  /**
   * Hands the spare, with its slot, to a render of `policy` when `adopt` lets the render
   * take the slot; undefined when there is none that fits.
   */
  claim(policy: TargetPolicy, adopt: () => boolean): Spare | undefined {
    const s = this.spare;
    if (!s || s.policy !== policy || s.inst.retiring || !s.inst.browser.connected || !adopt()) return undefined;
    this.spare = undefined;
    return s;
  }

  /**
   * Gives the spare's slot to a lease that found none free (FairSlots' `reclaim`): the
   * spare's context closes in the background.
   */
  yieldSlot(): boolean {
    const s = this.spare;
    if (!s) return false;
    this.spare = undefined;
    void this.dispose(s);
    return true;
  }

  /** The claimed spare's context and page, if still usable on `inst`; else closes them. */
  async usable(s: Spare, inst: Instance): Promise<Prepared | undefined> {
    const prepared = s.inst === inst ? await s.ready.catch(() => undefined) : undefined;
    if (prepared && !prepared.page.isClosed()) return prepared;
    void s.ready.then((p) => p.context.close()).catch(() => undefined);
    return undefined;
  }

  /** Closes a spare nobody will use and ends its hold on its browser (not on the slot). */
  async dispose(s: Spare): Promise<void> {
    await s.ready.then((p) => p.context.close()).catch(() => undefined); // fails only when the browser is gone
    await this.browsers.endUse(s.inst);
  }

  /** Drops the spare and gives its slot back (shutdown). */
  discard(): void {
    if (this.yieldSlot()) this.slots.unhold();
  }
}
