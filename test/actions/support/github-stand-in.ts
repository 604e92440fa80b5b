import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  method: string;
  path: string;
  /** The query string, without `?`. */
  query: string;
  auth?: string;
  body?: { body?: string; query?: string };
}

export interface IssueComment {
  id: number;
  body: string;
  issue: number;
  user: { login: string; type: 'Bot' | 'User' };
}

/** A file of a pull request, as `GET /repos/{o}/{r}/pulls/{n}/files` lists it. */
export interface PullFile {
  filename: string;
  status: 'added' | 'modified' | 'removed' | 'renamed';
  patch?: string;
}

export interface StandInOptions {
  readmes?: Record<string, string>;
  /** Per pull request number, its files (paginated by `per_page`). */
  pullFiles?: Record<number, PullFile[]>;
}

/**
 * The loopback GitHub API stand-in (the one allowed double), answering as GitHub does:
 * issue comments (list, create, update) with their authors; the token's identity through
 * GraphQL `viewer` (installation tokens, `ghs_…`, are `github-actions[bot]`; any other
 * token is the user named after `ghp_`), with REST `GET /user` refusing installation tokens
 * ("Resource not accessible by integration"); a pull request's files with their patches,
 * paginated with `Link` headers; a repository README for the API's GitHub mode. Records
 * every call with its Authorization header.
 */
export async function startGithubStandIn(opts: StandInOptions = {}) {
  const calls: RecordedCall[] = [];
  const comments: IssueComment[] = [];
  let nextId = 1000;

  const identity = (auth: string | undefined): IssueComment['user'] | undefined => {
    const token = /^(?:token|bearer) (.+)$/i.exec(auth ?? '')?.[1];
    if (!token) return undefined;
    if (token.startsWith('ghs_')) return { login: 'github-actions[bot]', type: 'Bot' };
    return { login: token.replace(/^ghp_/, ''), type: 'User' };
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const body = raw ? JSON.parse(raw) : undefined;
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const path = url.pathname;
    calls.push({ method: req.method ?? 'GET', path, query: url.search.slice(1), auth: req.headers.authorization, body });
    const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(json));
    };
    let m: RegExpExecArray | null;
    // Public repository contents: the API's GitHub mode reads them without a token.
    if ((m = /^\/repos\/([^/]+\/[^/]+)(\/readme)?$/.exec(path)) && opts.readmes?.[m[1]] !== undefined) {
      if (!m[2]) return send(200, { full_name: m[1], default_branch: 'main' });
      return send(200, { path: 'README.md', encoding: 'base64', content: Buffer.from(opts.readmes[m[1]]).toString('base64') });
    }
    const who = identity(req.headers.authorization);
    if (!who) return send(401, { message: 'Requires authentication' });

    if (path === '/graphql' && req.method === 'POST') {
      if (/\bviewer\b/.test(body?.query ?? '')) return send(200, { data: { viewer: { login: who.login } } });
      return send(200, { errors: [{ message: 'unsupported query in the stand-in' }] });
    }
    if (path === '/user' && req.method === 'GET') {
      if (who.type === 'Bot') return send(403, { message: 'Resource not accessible by integration' });
      return send(200, { login: who.login, type: 'User' });
    }
    if ((m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/.exec(path))) {
      const issue = Number(m[1]);
      if (req.method === 'GET') return send(200, comments.filter((c) => c.issue === issue));
      if (req.method === 'POST') {
        const created = { id: nextId++, body: String(body?.body), issue, user: who };
        comments.push(created);
        return send(201, created);
      }
    }
    if ((m = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(path)) && req.method === 'PATCH') {
      const id = Number(m[1]);
      const comment = comments.find((c) => c.id === id);
      if (!comment) return send(404, { message: 'Not Found' });
      comment.body = String(body?.body);
      return send(200, comment);
    }
    if ((m = /^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)\/files$/.exec(path)) && req.method === 'GET') {
      const files = opts.pullFiles?.[Number(m[1])];
      if (!files) return send(404, { message: 'Not Found' });
      const perPage = Number(url.searchParams.get('per_page') ?? 30);
      const page = Number(url.searchParams.get('page') ?? 1);
      const last = Math.max(1, Math.ceil(files.length / perPage));
      const next = new URL(url.href);
      next.searchParams.set('page', String(page + 1));
      const host = `http://${req.headers.host}`;
      const link: Record<string, string> = page < last ? { link: `<${host}${next.pathname}${next.search}>; rel="next"` } : {};
      return send(200, files.slice((page - 1) * perPage, page * perPage), link);
    }
    send(404, { message: 'Not Found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    comments,
    /** A comment written by someone else (a person quoting the marker, another bot). */
    addComment(issue: number, body: string, login: string): IssueComment {
      const c: IssueComment = { id: nextId++, body, issue, user: { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' } };
      comments.push(c);
      return c;
    },
    /** Calls to the comment endpoints as `METHOD path`. */
    commentCalls: () => calls.filter((c) => c.path.includes('/comments')).map((c) => `${c.method} ${c.path}`),
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
