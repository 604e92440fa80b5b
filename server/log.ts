import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON lines on stdout; secrets that could appear in objects are redacted. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: ['*.api_key', '*.apiKey', '*.password', '*.http_password', '*.authorization', '*["x-api-key"]'],
  });
}
