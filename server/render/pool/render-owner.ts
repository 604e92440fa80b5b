import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who a render is for: renders of one owner (an API key, or a keyless client IP) hold at
 * most `cap` of the pool's slots at once, and owners take turns for free slots.
 */
export interface RenderOwner {
  /** `key:<id>` or `ip:<address>`; never the key itself. */
  id: string;
  /** Renders this owner may run at once (its tier's share); `Infinity` for internal work, which may use every slot. */
  cap: number;
}

/** Renders started outside any request or job (tests, internal work). */
export const unowned: RenderOwner = { id: 'internal', cap: Infinity };

const current = new AsyncLocalStorage<RenderOwner>();

/**
 * Runs `fn` with renders counted against `owner`. The HTTP layer and the workers set it once
 * per request or job, so domain code that leases pages (screenshots, SEO, crawls) needs no
 * extra parameter to be fair.
 */
export function runAsRenderOwner<T>(owner: RenderOwner, fn: () => T): T {
  return current.run(owner, fn);
}

/** The owner of the render being started, if a request or job set one. */
export const currentRenderOwner = (): RenderOwner | undefined => current.getStore();

/** The owner for a caller: its key (share by tier), or its IP when keyless. */
export function renderOwnerFor(share: Record<string, number>, key: { id: string; tier: string } | null, ip: string): RenderOwner {
  return key ? { id: `key:${key.id}`, cap: share[key.tier] ?? share.keyless } : { id: `ip:${ip}`, cap: share.keyless };
}
