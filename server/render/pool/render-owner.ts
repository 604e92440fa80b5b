/**
 * Who a render is for: renders of one owner (an API key, or a keyless client IP) hold at
 * most `cap` of the pool's slots at once, and owners take turns for free slots. Every lease
 * names its owner (`BrowserPool.as(owner)`): there is no default share to fall into.
 */
export interface RenderOwner {
  /** `key:<id>` or `ip:<address>`; never the key itself. */
  id: string;
  /** Renders this owner may run at once (its tier's share); `Infinity` for work that may use every slot. */
  cap: number;
}

/** The owner for a caller: its key (share by tier), or its IP when keyless. */
export function renderOwnerFor(share: Record<string, number>, key: { id: string; tier: string } | null, ip: string): RenderOwner {
  return key ? { id: `key:${key.id}`, cap: share[key.tier] ?? share.keyless } : { id: `ip:${ip}`, cap: share.keyless };
}

/** The owner of work that may use every slot (benchmarks, tests, operator scripts): named where it is used, never a default. */
export const internalRenderOwner: RenderOwner = { id: 'internal', cap: Infinity };
