/**
 * Piscina worker: extracts one document's links and anchors, off the event loop. A
 * pathological document (deep nesting, emphasis runs) can keep a CommonMark parser busy for
 * seconds; here it only holds one thread, and the pool ends it at its time limit.
 */
import type { MessagePort } from 'node:worker_threads';
import type { DocumentInput } from './document-input.js';
import { extractDocument, type ExtractedDocument } from './extract-document.js';

export interface ExtractTask {
  doc: DocumentInput;
  /** Told when the work starts, so the time limit counts running time, not time in the queue. */
  started: MessagePort;
}

export default function extract({ doc, started }: ExtractTask): ExtractedDocument {
  started.postMessage('started');
  started.close();
  return extractDocument(doc);
}
