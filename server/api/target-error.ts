/** Kept for routers written against the earlier name; the mapping lives in `server/errors/from-net.ts`. */
export { targetError as targetHttpError, targetFailure } from '../errors/index.js';
