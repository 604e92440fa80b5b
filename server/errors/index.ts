export { DomainError } from './domain-error.js';
export { HttpError } from './http-error.js';
export {
  BadInputError,
  ForbiddenError,
  NotFoundError,
  OverLimitError,
  PayloadTooLargeError,
  TierTooLowError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
} from './caller-errors.js';
export { TargetFailedError, TargetRefusedError, TargetTimeoutError, type TargetErrorOptions } from './target-errors.js';
export { DependencyDownError, InternalError, JobFailedError } from './service-errors.js';
export { asDomainError, httpReply, type HttpReply } from './http-reply.js';
export { settle, targetError, targetErrorOf, targetFailure } from './from-net.js';
