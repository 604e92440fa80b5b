import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Git with a fixed identity and no user or system configuration, so tests behave the same anywhere. */
const gitEnv = {
  PATH: process.env.PATH ?? '',
  HOME: os.tmpdir(),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};

export interface Repo {
  dir: string;
  git(...args: string[]): Promise<string>;
  /** Writes files (relative paths; parent folders made); `null` deletes one. */
  write(files: Record<string, string | Uint8Array | null>): Promise<void>;
  symlink(target: string, linkPath: string): Promise<void>;
  /** Stages everything and commits; answers the commit's SHA. */
  commit(message: string): Promise<string>;
  remove(): Promise<void>;
}

/** A real git repository in a temporary directory, on branch `main`. */
export async function gitRepo(): Promise<Repo> {
  const repo = repoAt(await mkdtemp(path.join(os.tmpdir(), 'repo-')));
  await repo.git('init', '-q', '-b', 'main');
  return repo;
}

/**
 * A clone of `from` at `ref` with only its last `depth` commits, as actions/checkout makes
 * one (`fetch-depth`).
 */
export async function shallowClone(from: Repo, ref: string, depth: number): Promise<Repo> {
  const repo = repoAt(await mkdtemp(path.join(os.tmpdir(), 'clone-')));
  await repo.git('init', '-q', '-b', 'main');
  await repo.git('fetch', '-q', `--depth=${depth}`, `file://${from.dir}`, ref);
  await repo.git('checkout', '-q', '--detach', 'FETCH_HEAD');
  return repo;
}

function repoAt(root: string): Repo {
  const git = async (...args: string[]) => (await run('git', args, { cwd: root, env: gitEnv, maxBuffer: 64 * 1024 * 1024 })).stdout;
  return {
    dir: root,
    git,
    async write(files) {
      for (const [rel, content] of Object.entries(files)) {
        const file = path.join(root, rel);
        if (content === null) await rm(file, { force: true });
        else {
          await mkdir(path.dirname(file), { recursive: true });
          await writeFile(file, content);
        }
      }
    },
    async symlink(target, linkPath) {
      await mkdir(path.dirname(path.join(root, linkPath)), { recursive: true });
      await symlink(target, path.join(root, linkPath));
    },
    async commit(message) {
      await git('add', '-A');
      await git('commit', '-q', '-m', message);
      return (await git('rev-parse', 'HEAD')).trim();
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
