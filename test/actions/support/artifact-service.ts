import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StoredArtifact {
  id: number;
  name: string;
  /** The workflow run and job backend ids the runtime token named. */
  runBackendId: string;
  jobBackendId: string;
  content: Buffer;
  /** The size and hash FinalizeArtifact reported. */
  size: string;
  hash?: string;
}

const service = '/twirp/github.actions.results.api.v1.ArtifactService/';

/**
 * A loopback stand-in of the runner's results service, as @actions/artifact (v2+ client,
 * artifacts v4) talks to it: Twirp JSON `CreateArtifact` answers a signed upload URL on this
 * server; the upload is Azure Blob block protocol (`PUT ?comp=block&blockid=…` per block,
 * then `PUT ?comp=blocklist` naming them in order); `FinalizeArtifact` answers the id.
 * `runtimeToken` is a JWT whose `scp` claim carries the backend ids, as the runner's is.
 */
export async function startArtifactService() {
  const artifacts: StoredArtifact[] = [];
  const pending = new Map<string, { runBackendId: string; jobBackendId: string; blocks: Map<string, Buffer>; content?: Buffer }>();
  let nextId = 4000;

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'POST' && url.pathname === `${service}CreateArtifact`) {
      const body = JSON.parse(raw.toString('utf8'));
      pending.set(body.name, { runBackendId: body.workflow_run_backend_id, jobBackendId: body.workflow_job_run_backend_id, blocks: new Map() });
      return json(200, { ok: true, signed_upload_url: `http://127.0.0.1:${port}/blobs/${encodeURIComponent(body.name)}?sig=stand-in` });
    }
    if (req.method === 'POST' && url.pathname === `${service}FinalizeArtifact`) {
      const body = JSON.parse(raw.toString('utf8'));
      const upload = pending.get(body.name);
      if (!upload?.content) return json(404, { code: 'not_found', msg: 'no upload for this artifact' });
      const id = nextId++;
      artifacts.push({ id, name: body.name, runBackendId: upload.runBackendId, jobBackendId: upload.jobBackendId, content: upload.content, size: body.size, hash: body.hash });
      pending.delete(body.name);
      return json(200, { ok: true, artifact_id: String(id) });
    }
    const blob = /^\/blobs\/(.+)$/.exec(url.pathname);
    const upload = blob ? pending.get(decodeURIComponent(blob[1])) : undefined;
    if (req.method === 'PUT' && upload) {
      const headers = { 'x-ms-request-id': 'stand-in', 'x-ms-version': '2025-01-05', date: new Date().toUTCString(), etag: '"0x1"', 'last-modified': new Date().toUTCString() };
      const comp = url.searchParams.get('comp');
      if (comp === 'block') upload.blocks.set(url.searchParams.get('blockid') ?? '', raw);
      else if (comp === 'blocklist') {
        const ids = [...raw.toString('utf8').matchAll(/<(?:Latest|Uncommitted|Committed)>([^<]+)<\//g)].map((m) => m[1]);
        upload.content = Buffer.concat(ids.map((id) => upload.blocks.get(id) ?? Buffer.alloc(0)));
      } else upload.content = raw; // a single Put Blob
      res.writeHead(201, headers);
      return res.end();
    }
    json(404, { code: 'not_found', msg: `${req.method} ${url.pathname}` });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return {
    url: `http://127.0.0.1:${port}`,
    runtimeToken: `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ scp: 'Actions.GenericRead Actions.Results:run-backend-1:job-backend-1' })}.stand-in`,
    artifacts,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
