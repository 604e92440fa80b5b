import { posix } from 'node:path';
import { z } from 'zod';
import { qInt } from '../route.js';
import { acceptBody, excludeBody, reportOptions, SUGGEST_FIXES_DOC } from './deadlinks-schemas.js';

/**
 * A path inside the repository, `/`-separated and relative to its root; `./` and inner `..`
 * are normalised away. Absolute paths, `..` above the root, backslashes and NUL are refused.
 */
export const repositoryPath = z
  .string()
  .min(1)
  .max(4096)
  .transform((v, ctx) => {
    const normal = posix.normalize(v);
    if (v.includes('\0') || v.includes('\\') || v.startsWith('/') || /^[a-z]:/i.test(v) || normal === '.' || normal === '..' || normal.startsWith('../')) {
      ctx.addIssue({ code: 'custom', message: 'must be a path inside the repository, relative to its root (no leading /, no .. above the root, no backslash or NUL)' });
      return z.NEVER;
    }
    return normal.replace(/\/+$/, '');
  });

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** `[from, to]`, 1-based and inclusive (an array of two, not a tuple: OpenAPI linters want `items`). */
const lineRange = z
  .array(z.number().int().min(1))
  .length(2)
  .refine(([from, to]) => from <= to, 'must be [from, to] with from <= to');

/** Body of POST /api/deadlinks/documents. */
export const documentsBody = z
  .object({
    documents: z
      .array(
        z.object({
          path: repositoryPath.describe(
            'Repository path; the extension picks the reader: Markdown (`.md`, `.markdown`, `.mdown`, `.mkd`, `.mkdn`, `.mdx`; CommonMark + GFM, as GitHub renders it), HTML (`.html`, `.htm`, `.xhtml`), or any other file as plain text (its absolute http(s) URLs by GFM\'s autolink-literal rules, and `<https://…>`)',
          ),
          content: z.string().describe('The file\'s text; with `encoding: "base64"`, its bytes'),
          encoding: z
            .enum(['utf-8', 'base64'])
            .default('utf-8')
            .describe('`base64` sends the file\'s bytes, for a file that is not UTF-8. HTML is decoded as a browser decodes it (BOM, `<meta charset>`, else windows-1252); any other file as GitHub reads it: binary by charlock_holmes\'s test (an image or PDF signature, or a NUL byte in the first MiB when no UTF-16/32 BOM), else UTF-8, else the encoding ICU\'s charset detector names (Latin-1, windows-125x, Shift_JIS, GB18030, EUC-KR, KOI8-R, UTF-16 …). Binary content is not read and is counted in `summary.skipped_documents`'),
        }),
      )
      .min(1)
      .describe('The files whose links are checked'),
    paths: z
      .array(repositoryPath)
      .default([])
      .describe('Every file of the repository (documents are added automatically). Relative links are checked against it without network; a directory exists when any path lies under it.'),
    anchors: z
      .record(z.string(), z.array(z.string().max(1024)).max(10_000))
      .optional()
      .describe(
        'Anchors of the set\'s other documents (sent in other calls), per path: their GitHub heading slugs and HTML ids and names, as `POST /api/deadlinks/documents` would read them. A `#fragment` into such a file is judged against them; into a file that is neither sent nor named here it cannot be judged and is listed in `not_checked` (`fragment_not_judged`). A client that splits a set over several calls sends each call the other calls\' anchors (the deadlinks action does).',
      ),
    offline: z
      .boolean()
      .default(false)
      .describe('`true`: no network at all. Links into the repository are checked as usual; every link that would be fetched is listed in `not_checked` (`offline`) with its places and not counted in `total_links_checked`. The way to check a repository\'s own files without touching the internet.'),
    unused_definitions: z
      .enum(['ignore', 'warn'])
      .default('ignore')
      .describe('Markdown reference definitions that render nothing (no reference uses the label, or an earlier definition has it; CommonMark matches labels case-folded): not links in any case. `warn` lists them in `warnings` as `unused_definition`.'),
    current_refs: z
      .array(z.string().min(1).max(255))
      .max(20)
      .default([])
      .describe('With `repository_url`: the refs (branch or tag names, commit SHAs) the sent files are, so their `blob/<ref>/` links are checked against `paths` and the documents (`HEAD` always is). Links at any other ref are checked against `refs` when it has that ref, else fetched over the network (never against these files).'),
    refs: z
      .record(
        z.string().min(1).max(255),
        z.object({
          paths: z.array(repositoryPath).describe('Every file of the repository at that ref'),
          anchors: z.record(z.string(), z.array(z.string().max(1024)).max(10_000)).optional().describe('Anchors of its Markdown and HTML files that links point into with a fragment'),
        }),
      )
      .optional()
      .describe('With `repository_url`: the files at other refs (tags, branches) that links point to (`…/blob/v1.2.0/docs/x.md#usage`), from the caller\'s checkout; such links are checked against them without network.'),
    only_lines: z
      .record(z.string(), z.array(lineRange).max(10_000))
      .optional()
      .describe('Check only links on these 1-based inclusive line ranges, per document path (`{"docs/a.md": [[10, 12], [40, 40]]}`); a link spanning several lines counts when any of its lines is in a range. Documents not named get no links checked, but still supply headings for fragment checks.'),
    repository_url: z
      // abort: zod runs the checks after a failed one too, and this refinement needs a URL.
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://github.com/owner/repo', abort: true })
      .refine((u) => new URL(u).pathname.split('/').filter(Boolean).length >= 2, 'must name the repository: https://host/owner/repo')
      .optional()
      .describe('`https://github.com/owner/repo` (or a GitHub Enterprise URL): links to its `blob/`, `tree/`, `raw/` and `blame/` URLs (and raw.githubusercontent.com for github.com) at a ref in `current_refs` are checked against `paths`, at a ref in `refs` against that ref\'s files, at any other ref over the network; a relative link above the repository root is one of its pages (`../../` its home, `../../issues`).'),
    site_root: repositoryPath
      .optional()
      .describe(
        'A built site\'s folder in the repository (`site`, `_site`, `public`): HTML documents under it are read as that site serves them, so a root-relative link (`/css/main.css`) is `<site_root>/css/main.css`, and `..` above it stays at it. Elsewhere root-relative links start at the repository root; Markdown always resolves as GitHub shows the file. `<base href>` applies to HTML documents as in browsers (a relative one within the site, an absolute one sends relative links to that URL, checked over the network).',
      ),
    exclude: excludeBody,
    accept: acceptBody,
    list_checked: z
      .boolean()
      .default(false)
      .describe('`true` adds `checked_urls` to the JSON report: every link counted in `total_links_checked` (repository paths for links into the repository). A client that splits a set over several calls counts each link once with it, so the merged health score stays exact.'),
    ...reportOptions,
    suggest_fixes: z.boolean().default(false).describe(SUGGEST_FIXES_DOC),
    check_only: z
      .enum(['internal', 'external'])
      .optional()
      .describe('`internal`: only links into the repository (relative links and its own blob/tree URLs); `external`: only links fetched over the network.'),
    max_duration: qInt(10, 120)
      .default(60)
      .describe('Time budget in seconds, 10 to 120 (default 60). When exceeded, the report holds what was checked and `timed_out: true`.'),
  })
  .strict()
  .meta({
    example: {
      documents: [
        { path: 'README.md', content: '# Project\n\nSee [the guide](docs/guide.md#install) and [the site](https://example.com/).\n' },
        { path: 'docs/guide.md', content: '# Guide\n\n## Install\n\n![logo](/img/logo.png)\n' },
      ],
      paths: ['README.md', 'docs/guide.md', 'img/logo.png'],
      only_lines: { 'README.md': [[3, 3]] },
      repository_url: 'https://github.com/owner/repo',
      format: 'json',
    },
  })
  .superRefine((b, ctx) => {
    const seen = new Set<string>();
    b.documents.forEach((d, i) => {
      if (seen.has(d.path)) ctx.addIssue({ code: 'custom', path: ['documents', i, 'path'], message: `repeats the path ${d.path}; send each document once` });
      seen.add(d.path);
      if (d.encoding === 'base64' && !BASE64.test(d.content)) ctx.addIssue({ code: 'custom', path: ['documents', i, 'content'], message: 'must be base64 (A–Z, a–z, 0–9, +, /, = padding) with encoding: base64' });
    });
    for (const key of Object.keys(b.only_lines ?? {})) {
      const parsed = repositoryPath.safeParse(key);
      if (!parsed.success) ctx.addIssue({ code: 'custom', path: ['only_lines', key], message: 'must be keyed by repository paths' });
    }
  })
  .transform((b) => ({
    ...b,
    // Keys normalised like the document paths they name.
    only_lines: b.only_lines
      ? Object.fromEntries(Object.entries(b.only_lines).map(([k, v]) => [repositoryPath.parse(k), v.map(([from, to]): [number, number] => [from, to])]))
      : undefined,
  }));

export type DocumentsBody = z.infer<typeof documentsBody>;
