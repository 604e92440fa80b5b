import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { BadInputError } from '../../errors/index.js';
import { defineRoute, errorResponse, targetFailures } from '../route.js';
import { checkTls, parseDomain } from '../../tls/tls-check.js';
import { tlsGrades, tlsRubric } from '../../tls/tls-grade.js';

const grade = z.enum(tlsGrades);
const dn = z.object({ common_name: z.string(), organization: z.string() });

export const tlsReport = z.object({
  domain: z.string().describe('Host name checked (as given, without the port)'),
  port: z.number().int().describe('TCP port (default 443)'),
  valid: z.boolean().describe('Chain trusted by the system store (plus NODE_EXTRA_CA_CERTS / TLS_EXTRA_CA_FILE), host name covered, and now inside the validity window'),
  grade: grade.describe('Final grade after caps'),
  grade_before_caps: grade.describe('Grade from protocol and cipher alone, before certificate caps (testssl.sh / SSL Labs "score before caps")'),
  grade_issues: z.array(z.string()).describe('Every point lost and every cap applied, each with what to do'),
  subject: dn,
  issuer: dn,
  validity: z.object({
    issued: z.string().describe('notBefore, ISO 8601'),
    expires: z.string().describe('notAfter, ISO 8601'),
    days_remaining: z.number().int().describe('Whole days until expiry; negative when expired'),
  }),
  subject_alt_names: z.array(z.string()),
  protocol: z.string().describe('Negotiated protocol, e.g. TLSv1.3'),
  cipher: z.object({
    name: z.string().describe('OpenSSL name'),
    standard_name: z.string().describe('IANA name'),
    bits: z.number().int().describe('Symmetric key bits'),
    forward_secrecy: z.boolean(),
    aead: z.boolean(),
  }),
  serial_number: z.string().describe('Hexadecimal'),
  trust: z.object({
    chain_trusted: z.boolean(),
    hostname_matches: z.boolean(),
    self_signed: z.boolean(),
    error: z.string().nullable().describe('OpenSSL verification code, e.g. CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT'),
  }),
  public_key: z.object({ type: z.string(), bits: z.number().int().nullable() }),
  signature_algorithm: z.string().nullable(),
  fingerprint_sha256: z.string(),
  ip_address: z.string().describe('Address connected to'),
  connection_time_ms: z.number().describe('DNS + TCP connect + TLS handshake'),
  timestamp: z.string().describe('ISO 8601'),
});

export function sslRoutes(deps: AppDeps) {
  return [
    defineRoute({
      api: 'ssl',
      method: 'get',
      path: '/api/ssl',
      summary: 'Check and grade a TLS certificate and connection',
      description: `Performs one real TLS handshake with SNI (protocols down to TLS 1.0 are accepted so they can be graded). ${tlsRubric}`,
      key: 'optional',
      limit: 'ssl',
      query: z.object({
        domain: z
          .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
          .trim()
          .min(1, 'is required')
          .max(300)
          .describe('Host name without scheme, optionally host:port (default port 443)')
          .meta({ example: 'example.com' }),
      }),
      responses: {
        200: { description: 'The TLS report', content: { 'application/json': tlsReport } },
        ...targetFailures({ 400: errorResponse('Invalid domain, or a target that is not allowed'), 502: errorResponse('Host does not resolve, port refused, or the TLS handshake failed'), 504: errorResponse('Connection or handshake timed out') }),
      },
      async handler({ query, res }) {
        const target = parseDomain(query.domain);
        if (!target) throw new BadInputError('domain must be a host name, optionally with :port (e.g. example.com or example.com:8443), without a path');
        const report = await checkTls(
          { ...target, timeoutMs: Math.min(deps.config.FETCH_TIMEOUT_MS, 10_000) },
          { policy: deps.http.policy, ca: deps.tlsCa },
        );
        res.json(report);
      },
    }),
  ];
}
