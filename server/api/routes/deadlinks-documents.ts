import type { AppDeps } from '../deps.js';
import { PayloadTooLargeError } from '../../errors/index.js';
import { defineRoute, errorResponse } from '../route.js';
import { documentsBody } from './deadlinks-documents-schema.js';
import { linkFilters, sendReport } from './deadlinks-output.js';
import { deadlinkReport } from './deadlinks-schemas.js';
import { checkDocuments } from '../../links/documents-check.js';
import { documentBytes, documentLimits, type DocumentInput } from '../../links/document-input.js';
import type { KeyRecord } from '../../keys/key-store.js';

const limitsText = Object.entries(documentLimits)
  .map(([tier, l]) => `${tier} ${l.max_documents} documents / ${Math.round(l.max_bytes / 1024)} KB`)
  .join(', ');

/** POST /api/deadlinks/documents: a repository's own Markdown and HTML files. */
export function deadlinkDocumentRoutes(deps: AppDeps) {
  return [
    defineRoute({
      api: 'deadlinks',
      method: 'post',
      path: '/api/deadlinks/documents',
      summary: "Check the links of a repository's own files (Markdown, HTML and any other text)",
      description: `The deadlinks action's engine for \`files\`: the caller sends file contents and the repository's paths. Markdown is read by a CommonMark + GFM parser as GitHub renders it: only reference definitions a reference uses, only what GitHub's HTML sanitizer keeps (raw link, script and iframe elements, style attributes and URLs of other protocols are not links); HTML by the HTML extractor; any other file as plain text (its absolute http(s) URLs by GFM's autolink-literal rules); bytes that are not UTF-8 are decoded as GitHub decodes them, binary content is skipped and counted in \`summary.skipped_documents\`. Relative and root-relative links (\`/docs/x.md\` is from the repository root; in HTML documents under \`site_root\`, from that folder, as the built site serves them) are checked against \`paths\` without network (\`missing_file\`); \`..\` above the root leads to the repository's own pages, as on GitHub (\`../../\` its home). \`#fragments\` into a document of the set are judged against its GitHub heading slugs (HTML documents: ids and names), into the set's other documents by \`anchors\`; one into a file whose anchors are unknown is listed in \`not_checked\`. The repository's own blob/tree URLs are checked against the files at their ref (\`current_refs\`, \`refs\`) and fetched at any other ref; everything else over the network exactly like a site check, or with \`offline\` not at all (listed in \`not_checked\`). Every item carries \`file\`, \`line\`, \`column\` of its first occurrence and \`locations\` of all. Per call: ${limitsText}; more answers 413 with \`limit: {max_documents, max_bytes}\` so a client can split the set. The body itself may be up to ${deps.config.LINK_DOCUMENTS_BODY_MAX_BYTES} bytes (gzip accepted with Content-Encoding). One call counts as one request.`,
      key: 'optional',
      limit: 'deadlinks',
      jsonBodyMaxBytes: deps.config.LINK_DOCUMENTS_BODY_MAX_BYTES,
      body: documentsBody,
      responses: {
        200: {
          description: 'The dead-link report (`mode: "documents"`) in the requested format',
          content: { 'application/json': deadlinkReport, 'text/csv': 'text', 'text/plain': 'text', 'text/markdown': 'text' },
        },
        400: errorResponse('Invalid body: the message names the field and index (e.g. `documents.3.path`)'),
        413: errorResponse('Too many documents or bytes for the tier (the body also has `limit: {max_documents, max_bytes}`), or a body over the transport limit'),
        429: errorResponse('Rate limit exceeded (keyless: 1 check per 30 minutes per IP)'),
      },
      async handler({ body, key, owner, res }) {
        enforceLimits(body.documents, key);
        const report = await checkDocuments(
          {
            documents: body.documents,
            paths: body.paths,
            anchors: body.anchors,
            onlyLines: body.only_lines,
            repositoryUrl: body.repository_url,
            currentRefs: body.current_refs,
            refs: body.refs,
            offline: body.offline,
            unusedDefinitions: body.unused_definitions,
            siteRoot: body.site_root,
            checkOnly: body.check_only,
            fragments: body.fragments,
            gate: { threshold: body.threshold, maxBroken: body.max_broken },
            listChecked: body.list_checked,
            suggestFixes: body.suggest_fixes,
            maxDurationMs: body.max_duration * 1000,
            signal: abortOnClose(res),
            ...linkFilters(body),
          },
          deps.links(owner, { cacheTtl: body.cache_ttl }),
        );
        sendReport(res, body.format, report, `${deps.config.baseUrl}/`);
      },
    }),
  ];
}

function enforceLimits(documents: DocumentInput[], key: KeyRecord | null) {
  const tier = key?.tier ?? 'keyless';
  const limit = documentLimits[tier];
  const bytes = documents.reduce((sum, d) => sum + documentBytes(d), 0);
  const who = key ? `the ${tier} tier` : 'calls without a key';
  if (documents.length > limit.max_documents) {
    throw new PayloadTooLargeError(`documents holds ${documents.length} documents; ${who} allow ${limit.max_documents} per call: split the set into several calls`, { details: { limit } });
  }
  if (bytes > limit.max_bytes) {
    throw new PayloadTooLargeError(`the documents' content is ${bytes} bytes; ${who} allow ${limit.max_bytes} bytes per call: split the set into several calls`, { details: { limit } });
  }
}

/** Stops the run when the caller goes away (its report would have no reader). */
function abortOnClose(res: { on(event: 'close', fn: () => void): unknown; writableFinished: boolean }): AbortSignal {
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  return gone.signal;
}
