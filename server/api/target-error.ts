import { HttpError } from './errors.js';
import { BlockedTargetError } from '../net/target-policy.js';
import { innermostMessage, netErrorKind, type NetErrorKind } from '../net/safe-http.js';

/**
 * Maps a failure to reach an analysis target to the reply the contract asks for:
 * 400 refused target, 504 timeout, 502 everything else (dns, refused, reset, tls),
 * with the innermost cause in words. `what` names the target (`example.com:443`).
 */
export function targetHttpError(err: unknown, what: string): HttpError {
  if (err instanceof HttpError) return err;
  const kind = netErrorKind(err);
  if (kind === 'blocked_target' || err instanceof BlockedTargetError) {
    return new HttpError(400, `target refused: ${innermostMessage(err)}`, 'blocked_target');
  }
  const detail = targetFailure(err, kind);
  if (kind === 'timeout') return new HttpError(504, `${what} did not answer in time: ${detail}`, 'target_timeout');
  return new HttpError(502, `${what} is unreachable: ${detail}`, 'target_unreachable');
}

/** A short sentence for a failure kind, as reported inside audit parts. */
export function targetFailure(err: unknown, kind: NetErrorKind = netErrorKind(err)): string {
  const inner = innermostMessage(err);
  switch (kind) {
    case 'dns':
      return `the host name does not resolve (${inner})`;
    case 'refused':
      return `the connection was refused (${inner})`;
    case 'reset':
      return `the connection was reset (${inner})`;
    case 'timeout':
      return `timed out (${inner})`;
    case 'tls':
      return `the TLS handshake failed (${readableTlsError(inner)})`;
    default:
      return inner;
  }
}

/**
 * OpenSSL's messages carry a library prefix and source path
 * ("408D…:error:0A00010B:SSL routines:tls_validate_record_header:wrong version number:../deps/…");
 * keep the reason, and say what the common ones mean.
 */
function readableTlsError(message: string): string {
  const m = /SSL routines:[^:]*:([^:]+):/.exec(message);
  const reason = (m?.[1] ?? message).trim();
  if (reason === 'wrong version number') return 'wrong version number: the port does not speak TLS, perhaps plain HTTP';
  if (reason === 'unsupported protocol') return 'unsupported protocol: the server offers only TLS versions too old to negotiate';
  return reason;
}
