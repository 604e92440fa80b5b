import { errorCodes, innermostMessage, netErrorKind, type NetErrorKind } from '../net/safe-http.js';
import { tlsFailureReason } from '../net/tls-failure.js';
import { BlockedTargetError } from '../net/target-policy.js';
import { DomainError } from './domain-error.js';
import type { Part } from './part-failure.js';
import { TargetFailedError, TargetRefusedError, TargetTimeoutError } from './target-errors.js';

/**
 * A failure to reach an analysis target as the vocabulary's error: refused target (400),
 * timeout (504), or unreachable (502: dns, refused, reset, tls), with the innermost cause in
 * words. `what` names the target as the caller gave it (`example.com:443`).
 */
export function targetError(err: unknown, what: string): DomainError {
  if (err instanceof DomainError) return err;
  const kind = netErrorKind(err);
  if (kind === 'blocked_target') {
    const reason = innermostMessage(err);
    return new TargetRefusedError(reason.startsWith('target refused') ? reason : `target refused: ${reason}`, { cause: err });
  }
  const detail = targetFailure(err, kind);
  return targetErrorOf(kind, kind === 'timeout' ? `${what} did not answer in time: ${detail}` : `${what} is unreachable: ${detail}`, err);
}

/** The vocabulary's error for a target that failed the way `kind` says (a link result's or a report part's kind). */
export function targetErrorOf(kind: string, message: string, cause?: unknown): DomainError {
  if (kind === 'blocked_target') return new TargetRefusedError(message, { cause });
  if (kind === 'timeout') return new TargetTimeoutError(message, { cause });
  return new TargetFailedError(message, { cause, kind });
}

/**
 * A short sentence for a failure kind, as reported inside audit parts and link results.
 * Node's socket errors name the address they connected to (`connect ECONNREFUSED
 * 10.1.2.3:443`); that address is the resolver's answer, not the caller's, so it is left out.
 */
export function targetFailure(err: unknown, kind: NetErrorKind = netErrorKind(err)): string {
  const inner = withoutAddresses(innermostMessage(err));
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
      return `the TLS handshake failed (${tlsFailureReason(errorCodes(err), inner)})`;
    default:
      return inner;
  }
}

/** Drops IP addresses (and their ports) from a socket error's message. */
function withoutAddresses(message: string): string {
  return message
    .replace(/\s*\[?(?:\d{1,3}\.){3}\d{1,3}\]?(?::\d+)?/g, '')
    .replace(/\s*\[?(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}\]?(?::\d+)?(?=$|[\s,;)])/gi, '')
    .trim();
}

/**
 * Resolves to the check's report or its failure; a refused target (our rule, not the site's)
 * still throws. A target's failure keeps its kind; any other error of ours is `unavailable`.
 */
export async function settle<T>(work: Promise<T>): Promise<Part<T>> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof BlockedTargetError || netErrorKind(err) === 'blocked_target') throw err;
    if (err instanceof TargetFailedError || err instanceof TargetTimeoutError) {
      // The network's own words when there are some (the part names its target already).
      return { error: err.cause !== undefined ? targetFailure(err.cause, err.kind as NetErrorKind) : err.message, kind: err.kind };
    }
    if (err instanceof DomainError) return { error: err.message, kind: 'unavailable' };
    return { error: targetFailure(err), kind: netErrorKind(err) };
  }
}
