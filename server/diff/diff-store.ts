import crypto from 'node:crypto';
import type { Redis } from 'ioredis';

export const diffImageNames = ['baseline', 'candidate', 'diff'] as const;
export type DiffImageName = (typeof diffImageNames)[number];

/** 128 random bits, base64url: unguessable, so the image URLs need no key. */
export const newDiffId = () => crypto.randomBytes(16).toString('base64url');
export const diffIdPattern = /^[A-Za-z0-9_-]{22}$/;

/** How long a diff's images are kept: a week, so PR comments keep showing them. */
export const DIFF_KEPT_SECONDS = 7 * 24 * 3600;

/** The three PNGs of a screenshot diff, kept in Redis for `ttlSeconds`. */
export class DiffStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    readonly ttlSeconds: number,
  ) {}

  private key(id: string, image: DiffImageName) {
    return `${this.prefix}diff:${id}:${image}`;
  }

  async save(id: string, images: Record<DiffImageName, Buffer>): Promise<void> {
    const multi = this.redis.multi();
    for (const name of diffImageNames) multi.set(this.key(id, name), images[name], 'EX', this.ttlSeconds);
    await multi.exec();
  }

  /** The PNG, or null once expired or never stored. */
  load(id: string, image: DiffImageName): Promise<Buffer | null> {
    return this.redis.getBuffer(this.key(id, image));
  }
}
