import { ApiError, type ApiClient } from '../../../shared/src/api-client.js';
import { documentBytes, documentLimits } from '../../../../server/links/document-input.js';
import type { Document } from './workspace-files.js';

/** What one call of POST /api/deadlinks/documents may carry (by the key's tier). */
export interface DocumentLimits {
  maxDocuments: number;
  /** Bytes of the documents' content, as the files have them. */
  maxBytes: number;
}

/** Without a key: the API's keyless limits, known in advance (a rejected call would use up the keyless quota). */
export const keylessLimits: DocumentLimits = asLimits(documentLimits.keyless);
/** With a key the API does not describe (an older API): the highest tier's; a lower tier's 413 names its own and the rest is re-split. */
export const keyedLimits: DocumentLimits = {
  maxDocuments: Math.max(...Object.values(documentLimits).map((l) => l.max_documents)),
  maxBytes: Math.max(...Object.values(documentLimits).map((l) => l.max_bytes)),
};

/** What the calls may carry, and how many calls the key has left today (when known). */
export interface CallBudget {
  limits: DocumentLimits;
  /** `free`, `pro` … (keyless: undefined). */
  tier?: string;
  remainingToday?: number;
}

interface UsageRecord {
  tier?: string;
  rate_limit_remaining_today?: number;
  documents_per_call?: { max_documents: number; max_bytes: number };
}

/**
 * The key's per-call limits before the first call, from GET /api/usage (which counts against
 * no quota), so no call is spent on a 413. A key the API refuses fails here, before any work.
 */
export async function callBudget(api: ApiClient, keyed: boolean): Promise<CallBudget> {
  if (!keyed) return { limits: keylessLimits };
  let usage: UsageRecord;
  try {
    usage = await api.get<UsageRecord>('/api/usage');
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return { limits: keyedLimits }; // an API without /api/usage: learn from a 413
    throw err;
  }
  const byTier = usage.tier && usage.tier in documentLimits ? documentLimits[usage.tier as keyof typeof documentLimits] : undefined;
  const limit = usage.documents_per_call ?? byTier;
  return { limits: limit ? asLimits(limit) : keyedLimits, tier: usage.tier, remainingToday: usage.rate_limit_remaining_today };
}

/**
 * Documents in consecutive batches under the limits, in the given (path) order so a folder's
 * files travel together and links between them are checked in one call. A document larger
 * than a whole call allows cannot be sent.
 */
export function planBatches(documents: Document[], limits: DocumentLimits): { batches: Document[][]; tooLarge: Document[] } {
  const batches: Document[][] = [];
  const tooLarge: Document[] = [];
  let current: Document[] = [];
  let size = 0;
  for (const d of documents) {
    const b = documentBytes(d);
    if (b > limits.maxBytes) {
      tooLarge.push(d);
      continue;
    }
    if (current.length && (current.length >= limits.maxDocuments || size + b > limits.maxBytes)) {
      batches.push(current);
      current = [];
      size = 0;
    }
    current.push(d);
    size += b;
  }
  if (current.length) batches.push(current);
  return { batches, tooLarge };
}

export interface BatchRun<T> {
  results: T[];
  /** Documents no call could take, with the limit that refused them. */
  tooLarge: Array<{ path: string; bytes: number; maxBytes: number }>;
  /** The limits the API named in a 413, when it did. */
  learned?: DocumentLimits;
}

/**
 * Sends the documents in batches, one call each. A 413 names the key's real limits
 * (`limit: { max_documents, max_bytes }`): the refused batch and the rest are re-planned
 * with them (halved when the 413 names none). `worthSending` skips batches with nothing to
 * check (changed_only: no changed line in them).
 */
export async function sendInBatches<T>(
  documents: Document[],
  limits: DocumentLimits,
  send: (batch: Document[]) => Promise<T>,
  worthSending: (batch: Document[]) => boolean = () => true,
): Promise<BatchRun<T>> {
  let current = limits;
  let learned: DocumentLimits | undefined;
  let plan = planBatches(documents, current);
  const tooLarge = plan.tooLarge.map((d) => ({ path: d.path, bytes: documentBytes(d), maxBytes: current.maxBytes }));
  let queue = plan.batches;
  const results: T[] = [];
  while (queue.length) {
    const [batch, ...rest] = queue;
    if (!worthSending(batch)) {
      queue = rest;
      continue;
    }
    try {
      results.push(await send(batch));
      queue = rest;
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 413) throw err;
      const named = limitsOf(err.body);
      const size = batch.reduce((n, d) => n + documentBytes(d), 0);
      // A 413 for a batch already within the named limits (they count something else too): halve the count, so this ends.
      const usable = named && (batch.length > named.maxDocuments || size > named.maxBytes) ? named : undefined;
      if (batch.length === 1 && !usable) throw err; // nothing smaller to try
      learned = named ?? learned;
      current = usable ?? { maxDocuments: Math.max(1, Math.floor(batch.length / 2)), maxBytes: current.maxBytes };
      plan = planBatches([...batch, ...rest.flat()], current);
      tooLarge.push(...plan.tooLarge.map((d) => ({ path: d.path, bytes: documentBytes(d), maxBytes: current.maxBytes })));
      queue = plan.batches;
    }
  }
  return { results, tooLarge, learned };
}

function limitsOf(body: Record<string, unknown> | undefined): DocumentLimits | undefined {
  const limit = body?.limit as { max_documents?: unknown; max_bytes?: unknown } | undefined;
  if (typeof limit?.max_documents !== 'number' || typeof limit.max_bytes !== 'number') return undefined;
  return asLimits({ max_documents: limit.max_documents, max_bytes: limit.max_bytes });
}

/** The API's `{max_documents, max_bytes}` in the action's words. */
function asLimits(limit: { max_documents: number; max_bytes: number }): DocumentLimits {
  return { maxDocuments: limit.max_documents, maxBytes: limit.max_bytes };
}
