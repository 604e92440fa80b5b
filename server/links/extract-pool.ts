import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { ExtractTask } from './extract-worker.js';
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
/**
 * Extraction in piscina worker threads, one task per document, so a large or hostile set
 * neither blocks the HTTP event loop nor runs unbounded. The pool starts on first use.
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
  const one = async (doc: DocumentInput): Promise<ExtractedDocument> => {
    const { port1, port2 } = new MessageChannel();
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    port1.once('message', () => {
      timer = setTimeout(() => abort.abort(), opts.timeoutMs);
    });
    try {
      const task: ExtractTask = { doc, started: port2 };
      return (await getPool().run(task, { signal: abort.signal, transferList: [port2] })) as ExtractedDocument;
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
      return { path: doc.path, kind: documentKind(doc.path), links: [], anchors: [], error: `reading it took longer than ${opts.timeoutMs / 1000} s` };
    } finally {
      clearTimeout(timer);
      port1.close();
    }
  };
  return {
    extract: (documents, onEach) =>
      Promise.all(
        documents.map(async (d) => {
          const doc = await one(d);
          onEach?.(doc);
          return doc;
        }),
      ),
    async close() {
      await pool?.destroy();
      pool = undefined;
    },
  };
}
