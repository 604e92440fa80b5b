import crypto from 'node:crypto';
import { BadInputError } from '../errors/index.js';

/**
 * Secrets a queued job needs when it runs (`target_headers`), sealed before they reach Redis:
 * AES-256-GCM under the operator's `JOB_SECRETS_KEY`, bound to the job's owner (additional
 * data), so a sealed value read from Redis, a backup or a replica tells nothing, and one
 * copied into another owner's job does not open. A per-process random key would not do: the
 * job may run in another worker process, or after a restart.
 */
export interface SecretSealer {
  seal(owner: string, secret: unknown): string;
  open<T>(owner: string, sealed: string): T;
}

const VERSION = 'v1';

/** The sealer of `key`; without a key every seal is refused with what the operator must set. */
export function secretSealer(key: Buffer | undefined): SecretSealer {
  return {
    seal(owner, secret) {
      if (!key) {
        throw new BadInputError(
          'target_headers cannot be kept for a queued job on this service: its operator has not set JOB_SECRETS_KEY (32 random bytes, e.g. `openssl rand -base64 32`, the same for every process). Use the synchronous endpoints (GET /api/deadlinks, GET /api/screenshot, POST /api/screenshot/diff), or ask the operator to set it',
        );
      }
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(owner));
      const body = Buffer.concat([cipher.update(JSON.stringify(secret), 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open<T>(owner: string, sealed: string): T {
      const [version, iv, tag, body] = sealed.split('.');
      // Not a caller's mistake: the key changed since the job was queued, or the data was altered.
      if (!key || version !== VERSION || !iv || !tag || body === undefined) throw new Error('the job\'s sealed secrets cannot be opened (JOB_SECRETS_KEY unset or changed since it was queued)');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(owner));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return JSON.parse(Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')) as T;
    },
  };
}
