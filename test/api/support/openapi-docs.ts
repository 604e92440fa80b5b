import { apis, type ApiName } from '../../../server/api/api-names.js';
import type { TestService } from '../../support/service.js';

export interface Operation {
  security: Array<Record<string, unknown>>;
  parameters: Array<{ name: string; in: string; required: boolean; example?: unknown; schema: { enum?: unknown[] } }>;
  requestBody?: { required: boolean; content: Record<string, { schema: unknown; example?: unknown }> };
  responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: Record<string, unknown> }> }>;
}

export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  [field: string]: unknown;
}

export interface DocumentedOperation {
  api: ApiName;
  path: string;
  method: string;
  op: Operation;
}

/** Every API's OpenAPI document, as a consumer fetches them. */
export async function fetchDocs(svc: TestService): Promise<Record<ApiName, OpenApiDoc>> {
  const docs = {} as Record<ApiName, OpenApiDoc>;
  for (const name of Object.keys(apis) as ApiName[]) docs[name] = (await svc.call(`/openapi/${name}`)).body;
  return docs;
}

/** Every operation of every document. */
export function operations(docs: Record<ApiName, OpenApiDoc>): DocumentedOperation[] {
  return (Object.entries(docs) as Array<[ApiName, OpenApiDoc]>).flatMap(([api, doc]) =>
    Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ api, path, method, op }))),
  );
}

/** How the operation treats keys, read from its `security`. */
export const keyRule = (op: Operation) => (op.security.length === 0 ? 'none' : op.security.some((s) => Object.keys(s).length === 0) ? 'optional' : 'required');

/** The documented media type a reply's Content-Type matches (`text/csv; charset=utf-8` → `text/csv`). */
export function documentedType(op: Operation, status: number, contentType: string | null): string | undefined {
  const res = op.responses[String(status)];
  if (!res) return undefined;
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return Object.keys(res.content ?? {}).find((t) => t === type);
}

/** A path with its parameters filled: `/api/screenshot/status/{job_id}` → `/api/screenshot/status/x`. */
export function fillPath(d: DocumentedOperation, fallback = 'x'): string {
  return d.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const p = d.op.parameters.find((x) => x.in === 'path' && x.name === name);
    return encodeURIComponent(String(p?.example ?? p?.schema.enum?.[0] ?? fallback));
  });
}
