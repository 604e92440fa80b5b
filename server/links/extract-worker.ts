/**
 * Piscina worker: extracts a batch of documents' links and anchors, off the event loop. A
 * pathological document (deep nesting, emphasis runs) can keep a CommonMark parser busy for
 * seconds; here it only holds one thread, and the pool ends it at its time limit. Each
 * document's start and result go back over `port` as they happen, so the documents read before
 * one that is ended are kept, and the time limit counts each document's own running time.
 */
import type { MessagePort } from 'node:worker_threads';
import type { DocumentInput } from './document-input.js';
import { extractDocument, type ExtractedDocument } from './extract-document.js';

export interface ExtractTask {
  docs: DocumentInput[];
  port: MessagePort;
}

/** What the worker tells about document `index` of its batch. */
export type ExtractProgress = { index: number; started: true } | { index: number; result: ExtractedDocument };

export default function extract({ docs, port }: ExtractTask): void {
  docs.forEach((doc, index) => {
    port.postMessage({ index, started: true } satisfies ExtractProgress);
    port.postMessage({ index, result: extractDocument(doc) } satisfies ExtractProgress);
  });
  port.close();
}
