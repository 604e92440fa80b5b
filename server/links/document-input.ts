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
