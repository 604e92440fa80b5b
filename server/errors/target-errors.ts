import { errorOf } from './domain-error.js';

/** What a target error may carry besides its message. */
export interface TargetErrorOptions {
  cause?: unknown;
  /**
   * How the target failed, in the stable words of link results and report parts (`dns`,
   * `refused`, `reset`, `tls`, `network`, `github_api`, …). @default 'network'
   */
  kind?: string;
}

/**
 * The target (a page, a link, a webhook receiver) is not an allowed address: private,
 * loopback, link-local or reserved, or a scheme other than http(s). The same 400 in fetch
 * and browser mode; the message never prints a resolved address the caller did not give.
 */
export class TargetRefusedError extends errorOf(400, 'blocked_target') {
  readonly kind = 'blocked_target';
}

/** The target could not be reached or loaded (DNS, refused, reset, TLS, a failed navigation). */
export class TargetFailedError extends errorOf(502, 'target_unreachable') {
  readonly kind: string;

  constructor(message: string, options: TargetErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.kind = options.kind ?? 'network';
  }
}

/** The target did not answer in time. */
export class TargetTimeoutError extends errorOf(504, 'target_timeout') {
  readonly kind = 'timeout';
}
