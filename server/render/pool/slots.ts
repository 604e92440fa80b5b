import type { RenderOwner } from './render-owner.js';
import { RendererClosingError, RenderQueueFullError, RenderShareExceededError } from './pool-errors.js';

export interface SlotsOptions {
  /** Slots (pages) in all. */
  capacity: number;
  /** Leases allowed to wait, all owners together; one more gets 429. */
  queue: number;
  /** Longest wait for a slot before 429, in ms. */
  waitMs: number;
  /**
   * Called when a lease finds no free slot: gives up a slot held with `hold()` for
   * speculative work (the warm spare), which passes to the lease, and returns true; or false.
   */
  reclaim?: () => boolean;
}

interface Waiter {
  grant(): void;
  reject(err: Error): void;
}

interface OwnerState {
  cap: number;
  active: number;
  waiting: Waiter[];
}

/**
 * The pool's slots with fair queueing: an owner holds at most its cap of slots (and never
 * all of them while anyone else could use one); when a slot frees, owners with waiting
 * leases take turns in round-robin order, so a busy owner queues behind itself only.
 */
export class FairSlots {
  private active = 0;
  private waiting = 0;
  private closed = false;
  private readonly owners = new Map<string, OwnerState>();
  /** Owners with waiting leases, in turn order. */
  private readonly turns: string[] = [];

  constructor(private readonly opts: SlotsOptions) {}

  /** Resolves when `owner` holds a slot; throws 429 when its share or the queue is used up. */
  async acquire(owner: RenderOwner): Promise<void> {
    if (this.closed) throw new RendererClosingError();
    const state = this.stateOf(owner);
    if (state.active < state.cap) {
      if (this.active < this.opts.capacity) {
        this.take(state);
        return;
      }
      if (this.opts.reclaim?.()) {
        state.active++; // the held slot passes straight to this lease
        return;
      }
    }
    // One owner may fill half the queue; renders with no owner (internal work) all of it.
    const ownQueue = owner.cap === Infinity ? this.opts.queue : Math.max(1, Math.floor(this.opts.queue / 2));
    if (state.waiting.length >= ownQueue) {
      throw new RenderShareExceededError(
        `this caller already has ${state.active} render(s) running and ${state.waiting.length} waiting, its share of the renderer; ` +
          'retry in a few seconds, send fewer renders at once, or use a higher tier for a larger share',
        5,
      );
    }
    if (this.waiting >= this.opts.queue) {
      throw new RenderQueueFullError(`the rendering queue is full (${this.waiting} renders waiting); retry in a few seconds`, 5);
    }
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      const timer = setTimeout(() => {
        this.dequeue(owner.id, state, waiter);
        reject(new RenderQueueFullError(`no renderer became free within ${this.opts.waitMs} ms; retry in a few seconds`, 5));
      }, this.opts.waitMs);
      state.waiting.push(waiter);
      this.waiting++;
      if (!this.turns.includes(owner.id)) this.turns.push(owner.id);
    });
  }

  /** Gives a slot held with `hold()` to `owner` when its share allows; false when it does not. */
  adopt(owner: RenderOwner): boolean {
    if (this.closed) return false;
    const state = this.stateOf(owner);
    if (state.active >= state.cap) {
      this.forget(owner.id);
      return false;
    }
    state.active++;
    return true;
  }

  /** Gives `owner`'s slot back and hands free slots to the next owners in turn. */
  release(owner: RenderOwner): void {
    const state = this.owners.get(owner.id);
    if (state) state.active--;
    this.active--;
    this.forget(owner.id);
    this.dispatch();
  }

  /** Takes a free slot for speculative work (no owner) when nobody waits; false when none is free. */
  hold(): boolean {
    if (this.closed || this.waiting > 0 || this.active >= this.opts.capacity) return false;
    this.active++;
    return true;
  }

  /** Gives back a slot taken with `hold()`. */
  unhold(): void {
    this.active--;
    this.dispatch();
  }

  /** A slot is free and nobody waits. */
  idle(): boolean {
    return !this.closed && this.waiting === 0 && this.active < this.opts.capacity;
  }

  stats() {
    return { active: this.active, queued: this.waiting, capacity: this.opts.capacity };
  }

  /** Refuses new leases and fails every waiting one. */
  close(): void {
    this.closed = true;
    for (const state of this.owners.values()) {
      for (const w of state.waiting.splice(0)) w.reject(new RendererClosingError());
    }
    this.waiting = 0;
    this.turns.length = 0;
  }

  private stateOf(owner: RenderOwner): OwnerState {
    // A caller never takes every slot, so another always finds one free or is next in turn.
    const cap = owner.cap === Infinity ? this.opts.capacity : Math.max(1, Math.min(owner.cap, this.opts.capacity - 1));
    let state = this.owners.get(owner.id);
    if (!state) {
      state = { cap, active: 0, waiting: [] };
      this.owners.set(owner.id, state);
    }
    state.cap = cap;
    return state;
  }

  private take(state: OwnerState) {
    state.active++;
    this.active++;
  }

  private dispatch() {
    let passes = this.turns.length;
    while (this.active < this.opts.capacity && passes > 0) {
      const id = this.turns.shift();
      if (id === undefined) return;
      const state = this.owners.get(id);
      if (!state || !state.waiting.length) {
        passes--;
        continue;
      }
      if (state.active >= state.cap) {
        this.turns.push(id); // at its share: keeps its place in the rotation, others go first
        passes--;
        continue;
      }
      const next = state.waiting.shift();
      this.waiting--;
      if (state.waiting.length) this.turns.push(id);
      this.take(state);
      next?.grant();
      passes = this.turns.length;
    }
  }

  private dequeue(id: string, state: OwnerState, waiter: Waiter) {
    const i = state.waiting.indexOf(waiter);
    if (i < 0) return;
    state.waiting.splice(i, 1);
    this.waiting--;
    this.forget(id);
  }

  /** Drops an owner with nothing running or waiting, so the map stays small. */
  private forget(id: string) {
    const state = this.owners.get(id);
    if (!state || state.active > 0 || state.waiting.length > 0) return;
    this.owners.delete(id);
    const t = this.turns.indexOf(id);
    if (t >= 0) this.turns.splice(t, 1);
  }
}
