import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

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

/** A pull request review comment, as `GET /repos/{o}/{r}/pulls/{n}/comments` lists it. */
export interface ReviewComment {
  id: number;
  pull_request_review_id: number;
  pull: number;
  path: string;
  line: number;
  original_line: number;
  side: 'RIGHT' | 'LEFT';
  body: string;
  commit_id?: string;
  user: IssueComment['user'];
}

/** A review as `POST /repos/{o}/{r}/pulls/{n}/reviews` made it. */
export interface Review {
  id: number;
  pull: number;
  event: string;
  body: string;
  commit_id?: string;
  user: IssueComment['user'];
  comments: ReviewComment[];
}

/** A SARIF upload as `POST /repos/{o}/{r}/code-scanning/sarifs` took it, the log decoded. */
export interface SarifUpload {
  id: string;
  repository: string;
  commit_sha: string;
  ref: string;
  log: { version?: string; runs?: Array<{ results?: Array<{ locations?: Array<{ physicalLocation?: { artifactLocation?: { uri?: string; uriBaseId?: string } } }> }> }> };
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
 * token is the user named after `ghp_`; a `ghs_readonly…` token, a fork's, may only read), with
 * REST `GET /user` refusing installation tokens
 * ("Resource not accessible by integration"); a pull request's files with their patches,
 * paginated with `Link` headers; a repository README for the API's GitHub mode; pull request
 * reviews with line comments (refused, 422, on a line outside the diff when the files are
 * known) and the review comments list; code scanning's SARIF upload (gzip and base64, a full
 * commit SHA and ref), decoded. Records every call with its Authorization header.
 */
export async function startGithubStandIn(opts: StandInOptions = {}) {
  const calls: RecordedCall[] = [];
  const comments: IssueComment[] = [];
  const reviews: Review[] = [];
  const reviewComments: ReviewComment[] = [];
  const sarifUploads: SarifUpload[] = [];
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
    // A fork's pull_request token (here `ghs_readonly…`) reads but cannot write, as GitHub answers it.
    if (/^(?:token|bearer) ghs_readonly/i.test(req.headers.authorization ?? '') && req.method !== 'GET' && path.startsWith('/repos/')) {
      return send(403, { message: 'Resource not accessible by integration' });
    }

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
    if ((m = /^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)\/reviews$/.exec(path)) && req.method === 'POST') {
      const pull = Number(m[1]);
      const refused = reviewProblem(body, opts.pullFiles?.[pull]);
      if (refused) return send(422, { message: 'Unprocessable Entity', errors: [refused] });
      const id = nextId++;
      const made: ReviewComment[] = (body.comments ?? []).map((c: { path: string; line: number; side?: 'RIGHT' | 'LEFT'; body: string }) => ({
        id: nextId++,
        pull_request_review_id: id,
        pull,
        path: c.path,
        line: c.line,
        original_line: c.line,
        side: c.side ?? 'RIGHT',
        body: c.body,
        commit_id: body.commit_id,
        user: who,
      }));
      reviewComments.push(...made);
      const review: Review = { id, pull, event: body.event ?? 'PENDING', body: body.body ?? '', commit_id: body.commit_id, user: who, comments: made };
      reviews.push(review);
      const html_url = `https://github.com/${path.split('/').slice(2, 4).join('/')}/pull/${pull}#pullrequestreview-${id}`;
      return send(200, { id, state: review.event === 'COMMENT' ? 'COMMENTED' : review.event, body: review.body, commit_id: review.commit_id, user: who, html_url });
    }
    if ((m = /^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)\/comments$/.exec(path)) && req.method === 'GET') {
      const pull = Number(m[1]);
      return paged(reviewComments.filter((c) => c.pull === pull));
    }
    if ((m = /^\/repos\/([^/]+\/[^/]+)\/code-scanning\/sarifs$/.exec(path)) && req.method === 'POST') {
      // GitHub's checks: a full commit SHA, a full ref, and `sarif` as gzip then base64 of a SARIF log.
      if (!/^[0-9a-f]{40}$/.test(String(body?.commit_sha))) return send(422, { message: 'Invalid commit_sha: must be a 40-character commit SHA' });
      if (!/^refs\/(heads|tags|pull)\/.+/.test(String(body?.ref))) return send(422, { message: 'Invalid ref: must be a full ref such as refs/heads/main or refs/pull/1/merge' });
      let log: SarifUpload['log'];
      try {
        log = JSON.parse(gunzipSync(Buffer.from(String(body?.sarif), 'base64')).toString('utf8'));
      } catch {
        return send(400, { message: 'Invalid sarif: must be a gzip-compressed, base64-encoded SARIF log' });
      }
      const upload: SarifUpload = { id: `sarif-${nextId++}`, repository: m[1], commit_sha: body.commit_sha, ref: body.ref, log };
      sarifUploads.push(upload);
      return send(202, { id: upload.id, url: `http://${req.headers.host}/repos/${m[1]}/code-scanning/sarifs/${upload.id}` });
    }
    if ((m = /^\/repos\/[^/]+\/[^/]+\/code-scanning\/sarifs\/([\w-]+)$/.exec(path)) && req.method === 'GET') {
      const upload = sarifUploads.find((u) => u.id === m?.[1]);
      if (!upload) return send(404, { message: 'Not Found' });
      return send(200, { processing_status: 'complete', analyses_url: null, errors: null });
    }
    send(404, { message: 'Not Found' });

    /** One page of `items` by `per_page` and `page`, with GitHub's `Link: <…>; rel="next"`. */
    function paged(items: unknown[]) {
      const perPage = Number(url.searchParams.get('per_page') ?? 30);
      const page = Number(url.searchParams.get('page') ?? 1);
      const next = new URL(url.href);
      next.searchParams.set('page', String(page + 1));
      const more: Record<string, string> = page * perPage < items.length ? { link: `<http://${req.headers.host}${next.pathname}${next.search}>; rel="next"` } : {};
      return send(200, items.slice((page - 1) * perPage, page * perPage), more);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    comments,
    /** Pull request reviews, with their line comments. */
    reviews,
    /** Every review comment, of every review. */
    reviewComments,
    /** SARIF logs uploaded to code scanning, decoded. */
    sarifUploads,
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

/**
 * Why GitHub would refuse a review (422), or undefined: an unknown event, a comment without
 * path, body or line, or (when the pull request's files are known) on a line outside its diff.
 */
function reviewProblem(body: { event?: string; comments?: Array<{ path?: string; line?: number; side?: string; body?: string }> } | undefined, files: PullFile[] | undefined): string | undefined {
  if (body?.event !== undefined && !['APPROVE', 'REQUEST_CHANGES', 'COMMENT'].includes(body.event)) return `event ${body.event} is not one of APPROVE, REQUEST_CHANGES, COMMENT`;
  for (const c of body?.comments ?? []) {
    if (!c.path || !c.body || !Number.isInteger(c.line)) return 'each comment needs path, body and line';
    if (c.side !== undefined && c.side !== 'RIGHT' && c.side !== 'LEFT') return `side ${c.side} is not RIGHT or LEFT`;
    if (!files) continue;
    const file = files.find((f) => f.filename === c.path);
    const inDiff = file?.patch !== undefined && hunkRanges(file.patch).some(([from, to]) => (c.line as number) >= from && (c.line as number) <= to);
    if (!inDiff) return `Pull request review thread line must be part of the diff (${c.path}:${c.line})`;
  }
  return undefined;
}

/** The new-side line ranges a patch's hunks show (added and context lines). */
function hunkRanges(patch: string): Array<[number, number]> {
  return [...patch.matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm)].map((m) => [Number(m[1]), Number(m[1]) + Number(m[2] ?? 1) - 1]);
}

/** The text of a review comment's ```suggestion block, as GitHub reads it to commit (fences of 3 or more backticks). */
export const suggestionOf = (body: string): string | undefined => /^(`{3,})suggestion\n([\s\S]*?)\n\1$/m.exec(body)?.[2];
