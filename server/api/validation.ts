import type { z } from 'zod';
import { badRequest } from './errors.js';

/** Parses `input` with `schema`, or throws a 400 whose message names the parameter and the rule. */
export function parseInput<T>(schema: z.ZodType<T>, input: unknown, where: 'query' | 'body' | 'path'): T {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw badRequest(result.error.issues.map((i) => describeIssue(i, where)).join('; '));
}

function describeIssue(issue: z.core.$ZodIssue, where: string): string {
  const name = issue.path.length ? issue.path.join('.') : where === 'body' ? 'request body' : where;
  const i = issue as z.core.$ZodIssue & Record<string, unknown>;
  switch (issue.code) {
    case 'invalid_type':
      if (i.input === undefined) return `${name} is required`;
      return `${name} must be ${article(String(i.expected))}`;
    case 'too_small':
      if (i.origin === 'array') return `${name} must have at least ${i.minimum} item(s)`;
      if (i.origin === 'string') return Number(i.minimum) === 1 ? `${name} must not be empty` : `${name} must be at least ${i.minimum} characters`;
      return `${name} must be at least ${i.minimum}`;
    case 'too_big':
      if (i.origin === 'array') return `${name} must have at most ${i.maximum} item(s)`;
      if (i.origin === 'string') return `${name} must be at most ${i.maximum} characters`;
      return `${name} must be at most ${i.maximum}`;
    case 'invalid_value':
      return `${name} must be one of ${(i.values as unknown[]).map(String).join(', ')}`;
    case 'invalid_format':
      return `${name} must be a valid ${i.format === 'email' ? 'email address' : String(i.format)}`;
    case 'unrecognized_keys':
      return `${where === 'body' ? 'request body' : name} has unknown field(s): ${(i.keys as string[]).join(', ')}`;
    default:
      return issue.message.startsWith(name) ? issue.message : `${name} ${issue.message}`;
  }
}

function article(t: string): string {
  if (t === 'number' || t === 'int') return 'a number';
  if (t === 'array') return 'an array';
  if (t === 'object') return 'an object';
  return /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`;
}
