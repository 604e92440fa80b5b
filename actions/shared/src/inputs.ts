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

/**
 * A required absolute http(s) URL, without a trailing slash. Read before anything is sent,
 * so a workflow that forgot it fails at once instead of sending its key somewhere else.
 */
export function requiredUrl(name: string, what: string): string {
  const v = core.getInput(name).trim();
  if (!v) throw new Error(`input ${name} is required: ${what}`);
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new Error(`input ${name} must be an absolute http(s) URL (${what})`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error(`input ${name} must be an http(s) URL (${what})`);
  if (u.username || u.password || u.search || u.hash) throw new Error(`input ${name} must be a plain base URL without credentials, query or fragment`);
  return u.href.replace(/\/+$/, '');
}

/**
 * `api_url` (required: a workflow without it must not send its key anywhere) and `api_key`,
 * masked in the log. Read first, before anything could be sent.
 */
export function apiInputs(): { apiUrl: string; apiKey?: string } {
  const apiUrl = requiredUrl('api_url', 'the base URL of your SiteLens API, e.g. https://sitelens.example.com');
  const apiKey = text('api_key') || undefined;
  if (apiKey) core.setSecret(apiKey);
  return { apiUrl, apiKey };
}
