import { errorOf } from './domain-error.js';

/**
 * The target (a page, a link, a webhook receiver) is not an allowed address: private,
 * loopback, link-local or reserved, or a scheme other than http(s). The same 400 in fetch
 * and browser mode; the message never prints a resolved address the caller did not give.
 */
export class TargetRefusedError extends errorOf(400, 'blocked_target') {}

/** The target could not be reached or loaded (DNS, refused, reset, TLS, a failed navigation). */
export class TargetFailedError extends errorOf(502, 'target_unreachable') {}

/** The target did not answer in time. */
export class TargetTimeoutError extends errorOf(504, 'target_timeout') {}
