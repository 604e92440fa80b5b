import * as core from '@actions/core';

/** Input readers for the settings modules; nothing else in the actions reads inputs. */
export const text = (name: string, fallback = '') => core.getInput(name).trim() || fallback;

export function bool(name: string, fallback: boolean): boolean {
  const v = core.getInput(name).trim().toLowerCase();
  if (!v) return fallback;
  if (['true', 'yes', '1', 'on'].includes(v)) return true;
  if (['false', 'no', '0', 'off'].includes(v)) return false;
  throw new Error(`input ${name} must be true or false, got ${JSON.stringify(v)}`);
}

export function int(name: string, range: { min: number; max: number }): number | undefined {
  const v = core.getInput(name).trim();
  if (!v) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < range.min || n > range.max) {
    throw new Error(`input ${name} must be an integer between ${range.min} and ${range.max}, got ${JSON.stringify(v)}`);
  }
  return n;
}

export function num(name: string, range: { min: number; max: number }): number | undefined {
  const v = core.getInput(name).trim();
  if (!v) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < range.min || n > range.max) {
    throw new Error(`input ${name} must be a number between ${range.min} and ${range.max}, got ${JSON.stringify(v)}`);
  }
  return n;
}

export function oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
  const v = core.getInput(name).trim() || fallback;
  if (!(allowed as readonly string[]).includes(v)) throw new Error(`input ${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(v)}`);
  return v as T;
}

/** A newline- or comma-separated list, blanks dropped. */
export const list = (name: string) =>
  core
    .getInput(name)
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** A newline-separated list (CSS selectors may hold commas). */
export const lines = (name: string) =>
  core
    .getInput(name)
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
