import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';

export interface ActionRun {
  /** 0 when every step succeeded (or was allowed to fail), else 1. */
  code: number;
  stdout: string;
  stderr: string;
  /** The action's outputs, from its `outputs:` expressions. */
  outputs: Record<string, string>;
  /** The GITHUB_STEP_SUMMARY content of all steps. */
  summary: string;
  /** `::error …::` / `::warning …::` / `::notice …::` workflow commands on stdout. */
  commands: string[];
  /** Each step's outcome by id. */
  steps: Record<string, StepResult>;
}

interface StepResult {
  outcome: 'success' | 'failure' | 'skipped';
  outputs: Record<string, string>;
}

export interface RunnerContext {
  repository: string;
  githubApiUrl: string;
  /** A pull_request event for this PR; else a push. */
  pullRequest?: number;
  /** The PR's head and base commits in the event payload. @default sha-of-pr-N, none */
  headSha?: string;
  baseSha?: string;
  /** Overrides the event name (e.g. `push` with no pull request). */
  eventName?: string;
  /** The event payload (GITHUB_EVENT_PATH's content), e.g. a deployment_status event's. @default a pull_request payload, or {} */
  event?: unknown;
  /** The checkout (GITHUB_WORKSPACE and the working directory). @default an empty directory */
  workspace?: string;
  /** GITHUB_JOB. @default links */
  job?: string;
  /** GITHUB_SHA. @default the head SHA */
  sha?: string;
  /** A push's branch (GITHUB_REF_NAME); a pull request's head and base branches (GITHUB_HEAD_REF, GITHUB_BASE_REF). @default main; feature into main */
  branch?: string;
  headRef?: string;
  baseRef?: string;
  /** GITHUB_SERVER_URL (a GitHub Enterprise server on loopback). @default https://github.com */
  serverUrl?: string;
  /** What the runner gives `uses:` steps only: the artifact service (ACTIONS_RUNTIME_TOKEN, ACTIONS_RESULTS_URL). */
  actionsRuntime?: Record<string, string>;
}

interface Step {
  id?: string;
  if?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string | boolean>;
  env?: Record<string, string>;
  'continue-on-error'?: boolean;
}

interface ActionYml {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

/** tsx's loader by path: a step runs in the workspace, where `--import tsx` would not resolve. */
const tsxLoader = pathToFileURL(path.resolve('node_modules/tsx/dist/loader.mjs')).href;

/** `uses:` steps the harness can run, each by the same library the real action uses. */
const usesSteps: Record<string, string> = { 'actions/upload-artifact@v7': 'test/actions/support/upload-artifact-step.ts' };

/**
 * Runs a composite action as the runner does: its `action.yml` read, inputs with their
 * defaults, each step's `if`, `${{ }}` expressions (inputs, steps' outputs and outcomes,
 * github.action_path), `run` steps in bash with their own GITHUB_OUTPUT file and the
 * run's GITHUB_* variables, `continue-on-error`, and the action's outputs. The one `uses:`
 * step it knows (actions/upload-artifact) runs @actions/artifact as that action does, with
 * the artifact service variables that the runner gives `uses:` steps and not `run` steps.
 * Asynchronous, so the API under test (in this process) keeps serving.
 */
export async function runAction(actionDir: string, given: Record<string, string>, ctx: RunnerContext): Promise<ActionRun> {
  const yml = parse(await readFile(path.join(actionDir, 'action.yml'), 'utf8')) as ActionYml;
  for (const name of Object.keys(given)) if (!(name in yml.inputs)) throw new Error(`${actionDir}/action.yml has no input ${name}`);
  const inputs = Object.fromEntries(Object.entries(yml.inputs).map(([n, d]) => [n, given[n] ?? (d.default?.includes('${{') ? '' : (d.default ?? ''))]));

  const dir = await mkdtemp(path.join(os.tmpdir(), 'action-run-'));
  const workspace = ctx.workspace ?? path.join(dir, 'workspace');
  await mkdir(workspace, { recursive: true });
  const summaryFile = path.join(dir, 'summary');
  const eventFile = path.join(dir, 'event.json');
  await writeFile(summaryFile, '');
  const headSha = ctx.headSha ?? (ctx.pullRequest ? `sha-of-pr-${ctx.pullRequest}` : undefined);
  const pr = ctx.pullRequest ? { number: ctx.pullRequest, head: { sha: headSha }, base: ctx.baseSha ? { sha: ctx.baseSha } : undefined } : undefined;
  await writeFile(eventFile, JSON.stringify(ctx.event ?? (pr ? { action: 'synchronize', number: ctx.pullRequest, pull_request: pr } : {})));
  const actionPath = path.resolve(actionDir);
  const runnerEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_EVENT_NAME: ctx.eventName ?? (ctx.pullRequest ? 'pull_request' : 'push'),
    GITHUB_EVENT_PATH: eventFile,
    GITHUB_REPOSITORY: ctx.repository,
    GITHUB_API_URL: ctx.githubApiUrl,
    GITHUB_SERVER_URL: ctx.serverUrl ?? 'https://github.com',
    ...(ctx.pullRequest
      ? { GITHUB_REF: `refs/pull/${ctx.pullRequest}/merge`, GITHUB_REF_NAME: `${ctx.pullRequest}/merge`, GITHUB_HEAD_REF: ctx.headRef ?? 'feature', GITHUB_BASE_REF: ctx.baseRef ?? 'main' }
      : { GITHUB_REF: `refs/heads/${ctx.branch ?? 'main'}`, GITHUB_REF_NAME: ctx.branch ?? 'main', GITHUB_REF_TYPE: 'branch' }),
    GITHUB_JOB: ctx.job ?? 'links',
    GITHUB_RUN_ID: '9000',
    GITHUB_RUN_NUMBER: '42',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_SHA: ctx.sha ?? headSha ?? 'sha-of-push',
    GITHUB_WORKSPACE: workspace,
    GITHUB_ACTION_PATH: actionPath,
    RUNNER_TEMP: dir,
  };

  const steps: Record<string, StepResult> = {};
  const value = (expr: string): string => {
    const e = expr.trim();
    const or = e.split('||');
    if (or.length > 1) return or.map(value).find((v) => v !== '') ?? '';
    let m: RegExpExecArray | null;
    if ((m = /^inputs\.([\w-]+)$/.exec(e))) return inputs[m[1]] ?? '';
    if ((m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(e))) return steps[m[1]]?.outputs[m[2]] ?? '';
    if ((m = /^steps\.([\w-]+)\.outcome$/.exec(e))) return steps[m[1]]?.outcome ?? '';
    if (e === 'github.action_path') return actionPath;
    throw new Error(`the harness does not evaluate \${{ ${e} }}`);
  };
  const substitute = (s: string) => s.replace(/\$\{\{(.+?)\}\}/g, (_, e: string) => value(e));
  const condition = (e: string): boolean => {
    const m = /^(.+?)\s*(==|!=)\s*'([^']*)'$/.exec(e.trim());
    if (!m) throw new Error(`the harness does not evaluate the condition ${e}`);
    return (value(m[1]) === m[3]) === (m[2] === '==');
  };

  let stdout = '';
  let stderr = '';
  let failed = false;
  for (const [i, step] of yml.runs.steps.entries()) {
    const id = step.id ?? `step-${i}`;
    if (failed || (step.if && !condition(step.if))) {
      steps[id] = { outcome: 'skipped', outputs: {} };
      continue;
    }
    const outputFile = path.join(dir, `output-${id}`);
    await writeFile(outputFile, '');
    const env: Record<string, string> = { ...runnerEnv, GITHUB_OUTPUT: outputFile };
    let result: { code: number | null; stdout: string; stderr: string };
    if (step.run !== undefined) {
      for (const [k, v] of Object.entries(step.env ?? {})) env[k] = substitute(v);
      result = await spawnStep('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', substitute(step.run)], env, workspace);
    } else {
      const script = usesSteps[step.uses ?? ''];
      if (!script) throw new Error(`the harness cannot run uses: ${step.uses}`);
      for (const [k, v] of Object.entries(step.with ?? {})) env[`INPUT_${k.toUpperCase()}`] = substitute(String(v));
      result = await spawnStep(process.execPath, ['--import', tsxLoader, path.resolve(script)], { ...env, ...ctx.actionsRuntime }, workspace);
    }
    stdout += result.stdout;
    stderr += result.stderr;
    steps[id] = { outcome: result.code === 0 ? 'success' : 'failure', outputs: parseOutputs(await readFile(outputFile, 'utf8')) };
    if (result.code !== 0 && !step['continue-on-error']) failed = true;
  }
  return {
    code: failed ? 1 : 0,
    stdout,
    stderr,
    outputs: Object.fromEntries(Object.entries(yml.outputs ?? {}).map(([n, o]) => [n, substitute(o.value)])),
    summary: await readFile(summaryFile, 'utf8'),
    commands: stdout.split('\n').filter((l) => /^::(error|warning|notice)/.test(l)),
    steps,
  };
}

function spawnStep(cmd: string, args: string[], env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(cmd, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, stdout: out, stderr: err }));
  });
}

/** `name<<DELIM\nvalue\nDELIM` blocks, as @actions/core writes them. */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) out[m[1]] = m[3];
  return out;
}

