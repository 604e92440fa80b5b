/**
 * The HTTP layer's short names for the vocabulary of `server/errors/` (which is where the
 * errors and their one mapping to HTTP live; domain code imports from there).
 */
import { BadInputError, NotFoundError, OverLimitError } from '../errors/index.js';

export { HttpError } from '../errors/index.js';

export const badRequest = (message: string) => new BadInputError(message);
export const notFound = (message: string) => new NotFoundError(message);
export const tooMany = (message: string, retryAfterSeconds: number) => new OverLimitError(message, retryAfterSeconds);
