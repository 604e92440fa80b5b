import type { Tier } from '../keys/tiers.js';

/** A repository file sent for checking (POST /api/deadlinks/documents, the action's calls). */
export interface DocumentInput {
  path: string;
  /** The file's text, or with `encoding: 'base64'` its bytes (a file that is not UTF-8). */
  content: string;
  /** @default 'utf-8' */
  encoding?: 'utf-8' | 'base64';
}

/** Bytes of a document's content as the file has them (what the per-call limits count). */
export const documentBytes = (doc: DocumentInput): number => Buffer.byteLength(doc.content, doc.encoding === 'base64' ? 'base64' : 'utf8');

/** Documents and content bytes (UTF-8) per call of POST /api/deadlinks/documents; `keyless` without a key. */
export const documentLimits: Record<Tier | 'keyless', { max_documents: number; max_bytes: number }> = {
  keyless: { max_documents: 50, max_bytes: 512 * 1024 },
  free: { max_documents: 200, max_bytes: 2 * 1024 * 1024 },
  starter: { max_documents: 500, max_bytes: 5 * 1024 * 1024 },
  pro: { max_documents: 2000, max_bytes: 20 * 1024 * 1024 },
  business: { max_documents: 2000, max_bytes: 20 * 1024 * 1024 },
};
