import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { ExtractProgress, ExtractTask } from './extract-worker.js';
import type { DocumentInput } from './document-input.js';
import { documentKind, type ExtractDocuments, type ExtractedDocument } from './extract-document.js';
import { workerModule } from '../worker-module.js';

export interface DocumentExtractor {
  /** Every document's links and anchors; a document that cannot be read in time comes back with `error`. */
  extract: ExtractDocuments;
  close(): Promise<void>;
}

export interface ExtractorOptions {
  /** Worker threads. */
  threads: number;
  /** Longest time one document may take, in ms. */
  timeoutMs: number;
}

/** Worker threads get a deeper stack than the main thread: nesting a parser recurses through is legal Markdown. */
const STACK_MB = 32;
/** Documents per task at most: one task per document cost more in messages than small documents cost to read. */
const BATCH = 16;

/**
 * Extraction in piscina worker threads, a batch of documents per task (a few per thread, so the
 * threads share the work evenly), so a large or hostile set neither blocks the HTTP event loop
 * nor runs unbounded: a document that takes longer than `timeoutMs` ends its task and comes
 * back with `error`; the documents of its batch after it go to a task of their own. The pool
 * starts on first use.
 */
export function createDocumentExtractor(opts: ExtractorOptions): DocumentExtractor {
  let pool: Piscina | undefined;
  const getPool = () =>
    (pool ??= new Piscina({
      filename: workerModule(import.meta.url, 'extract-worker').href,
      minThreads: 0,
      maxThreads: opts.threads,
      idleTimeout: 30_000,
      resourceLimits: { stackSizeMb: STACK_MB },
    }));

  /** Reads `docs` in one task; returns their results in order, the ones after a timed-out document read again. */
  const batch = async (docs: DocumentInput[], onEach?: (doc: ExtractedDocument) => void): Promise<ExtractedDocument[]> => {
    if (!docs.length) return [];
    const { port1, port2 } = new MessageChannel();
    const abort = new AbortController();
    const results: ExtractedDocument[] = [];
    let received = 0;
    let allIn = () => {};
    const everyResult = new Promise<void>((resolve) => (allIn = resolve));
    let current = 0;
    let timer: NodeJS.Timeout | undefined;
    port1.on('message', (m: ExtractProgress) => {
      clearTimeout(timer);
      if ('started' in m) {
        current = m.index;
        timer = setTimeout(() => abort.abort(), opts.timeoutMs);
        return;
      }
      results[m.index] = m.result;
      onEach?.(m.result);
      if (++received === docs.length) allIn();
    });
    try {
      const task: ExtractTask = { docs, port: port2 };
      await getPool().run(task, { signal: abort.signal, transferList: [port2] });
      // The task's end and its port's messages travel apart: every result was sent before it ended.
      await everyResult;
      return results;
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
      const slow = unreadable(docs[current], `reading it took longer than ${opts.timeoutMs / 1000} s`);
      onEach?.(slow);
      const rest = await batch(docs.slice(current + 1), onEach);
      return [...results.slice(0, current), slow, ...rest];
    } finally {
      clearTimeout(timer);
      port1.close();
    }
  };

  return {
    async extract(documents, onEach) {
      const size = Math.max(1, Math.min(BATCH, Math.ceil(documents.length / (opts.threads * 4))));
      const batches: DocumentInput[][] = [];
      for (let i = 0; i < documents.length; i += size) batches.push(documents.slice(i, i + size));
      return (await Promise.all(batches.map((b) => batch(b, onEach)))).flat();
    },
    async close() {
      await pool?.destroy();
      pool = undefined;
    },
  };
}

const unreadable = (doc: DocumentInput, error: string): ExtractedDocument => ({ path: doc.path, kind: documentKind(doc.path), links: [], anchors: [], error });
