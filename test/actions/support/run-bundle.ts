import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface BundleRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Parsed from the GITHUB_OUTPUT file. */
  outputs: Record<string, string>;
  /** The GITHUB_STEP_SUMMARY file's content. */
  summary: string;
  /** `::error …::` / `::notice …::` workflow commands on stdout. */
  commands: string[];
}

export interface RunnerContext {
  repository: string;
  githubApiUrl: string;
  pullRequest?: number;
}

/**
 * Runs `dist/<action>/index.js` as the runner does: inputs as INPUT_* variables, the
 * output and summary files, the event payload, and nothing else from this process's env.
 * Asynchronous, so the API under test (in this process) keeps serving.
 */
export async function runBundle(action: string, inputs: Record<string, string>, ctx: RunnerContext): Promise<BundleRun> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `action-${action}-`));
  const outputFile = path.join(dir, 'output');
  const summaryFile = path.join(dir, 'summary');
  const eventFile = path.join(dir, 'event.json');
  await Promise.all([writeFile(outputFile, ''), writeFile(summaryFile, '')]);
  await writeFile(
    eventFile,
    JSON.stringify(ctx.pullRequest ? { action: 'synchronize', number: ctx.pullRequest, pull_request: { number: ctx.pullRequest, head: { sha: `sha-of-pr-${ctx.pullRequest}` } } } : {}),
  );
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_EVENT_NAME: ctx.pullRequest ? 'pull_request' : 'push',
    GITHUB_EVENT_PATH: eventFile,
    GITHUB_REPOSITORY: ctx.repository,
    GITHUB_API_URL: ctx.githubApiUrl,
    RUNNER_TEMP: dir,
  };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;

  const child = spawn(process.execPath, [path.resolve('dist', action, 'index.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  return {
    code,
    stdout,
    stderr,
    outputs: parseOutputs(await readFile(outputFile, 'utf8')),
    summary: await readFile(summaryFile, 'utf8'),
    commands: stdout.split('\n').filter((l) => /^::(error|warning|notice)/.test(l)),
  };
}

/** `name<<DELIM\nvalue\nDELIM` blocks, as @actions/core writes them. */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /^(\w+)<<(\S+)\n([\s\S]*?)\n\2$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) out[m[1]] = m[3];
  return out;
}
