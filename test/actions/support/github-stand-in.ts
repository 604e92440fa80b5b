import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  method: string;
  path: string;
  /** The query string, without `?`. */
  query: string;
  auth?: string;
  body?: { body?: string };
}

export interface IssueComment {
  id: number;
  body: string;
  issue: number;
}

/**
 * The loopback GitHub REST stand-in (the one allowed double): issue comments (list,
 * create, update) with their state, and a repository README for the API's GitHub mode.
 * Records every call with its Authorization header.
 */
export async function startGithubStandIn(opts: { readmes?: Record<string, string> } = {}) {
  const calls: RecordedCall[] = [];
  const comments: IssueComment[] = [];
  let nextId = 1000;

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const body = raw ? JSON.parse(raw) : undefined;
    const path = (req.url ?? '/').split('?')[0];
    calls.push({ method: req.method ?? 'GET', path, query: (req.url ?? '').split('?')[1] ?? '', auth: req.headers.authorization, body });
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };

    let m: RegExpExecArray | null;
    if ((m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/.exec(path))) {
      const issue = Number(m[1]);
      if (req.method === 'GET') return send(200, comments.filter((c) => c.issue === issue));
      if (req.method === 'POST') {
        const created = { id: nextId++, body: String(body?.body), issue };
        comments.push(created);
        return send(201, created);
      }
    }
    if ((m = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(path)) && req.method === 'PATCH') {
      const comment = comments.find((c) => c.id === Number(m![1]));
      if (!comment) return send(404, { message: 'Not Found' });
      comment.body = String(body?.body);
      return send(200, comment);
    }
    if ((m = /^\/repos\/([^/]+\/[^/]+)(\/readme)?$/.exec(path)) && opts.readmes?.[m[1]] !== undefined) {
      if (!m[2]) return send(200, { full_name: m[1], default_branch: 'main' });
      return send(200, { path: 'README.md', encoding: 'base64', content: Buffer.from(opts.readmes[m[1]]).toString('base64') });
    }
    send(404, { message: 'Not Found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    comments,
    /** Calls to the comment endpoints as `METHOD path`. */
    commentCalls: () => calls.filter((c) => c.path.includes('/comments')).map((c) => `${c.method} ${c.path}`),
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
