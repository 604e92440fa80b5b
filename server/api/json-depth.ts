import type { RequestHandler } from 'express';
import { BadInputError } from '../errors/index.js';

/**
 * Refuses a parsed JSON body nested deeper than `max` objects and arrays: a body nested
 * thousands deep parses fine but overflows the stack of whatever walks it next (validation,
 * a chart's option merge), which would be a 500 for the caller's input.
 */
export function limitJsonDepth(max: number): RequestHandler {
  return (req, _res, next) => {
    if (req.body && typeof req.body === 'object' && depthExceeds(req.body, max)) {
      throw new BadInputError(`request body is nested deeper than ${max} levels of objects and arrays, the limit; flatten it`);
    }
    next();
  };
}

/** Walks the value without recursion, so the check itself cannot overflow. */
function depthExceeds(root: object, max: number): boolean {
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (depth > max) return true;
    for (const child of Object.values(value as object)) {
      if (child && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
