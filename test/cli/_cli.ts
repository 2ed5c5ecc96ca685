/** Runs the built `forecasting` binary (dist/cli.js) as a child process, as a user's shell would. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { startMockServer, type MockServer, type MockServerOptions } from '../../src/testing/index.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Whether the shell sessions of the docs can run here: every tool in `tools` is on PATH. On CI it is
 * always true, so that a machine without them fails the sessions rather than skips them (.ci/run
 * installs them).
 */
export function hasTools(...tools: string[]): boolean {
  if (process.env['CI']) return true;
  return tools.every((tool) => {
    try {
      execFileSync(tool, [tool === 'tmux' ? '-V' : '--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
}
export const BIN = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Variables added to a clean environment (no FORECASTING_* or REDIS_URL of the caller's). */
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed. */
  input?: string | Buffer;
  /** Kill after this many ms (a test bug, not an expectation). */
  killAfter?: number;
}

export interface Running {
  child: ChildProcess;
  done: Promise<Result>;
  /** Resolves once `stream` has printed text matching `pattern`. */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp): Promise<string>;
}

/** The environment of a child: this process's, without FORECASTING_* and REDIS_URL, plus `extra`. */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('FORECASTING_') && k !== 'REDIS_URL') env[k] = v;
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

/** Starts `forecasting …args`. */
export function start(args: string[], options: RunOptions = {}): Running {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: childEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
  const text = { stdout: '', stderr: '' };
  const waiters: Array<{ stream: 'stdout' | 'stderr'; pattern: RegExp; resolve: (s: string) => void }> = [];
  const check = () => {
    for (const w of [...waiters]) {
      const m = text[w.stream].match(w.pattern);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m[0]);
      }
    }
  };
  child.stdout!.setEncoding('utf8').on('data', (d: string) => ((text.stdout += d), check()));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => ((text.stderr += d), check()));
  if (options.input !== undefined) child.stdin!.end(options.input);
  else child.stdin!.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), options.killAfter ?? 60_000);
  const done = new Promise<Result>((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      for (const w of waiters.splice(0)) w.resolve(`(exited before ${w.pattern})`);
      resolve({ code, signal, ...text });
    });
  });
  return {
    child,
    done,
    waitFor: (stream, pattern) =>
      new Promise((resolve) => {
        waiters.push({ stream, pattern, resolve });
        check();
      }),
  };
}

/** Runs `forecasting …args` to its end. */
export function run(args: string[], options: RunOptions = {}): Promise<Result> {
  return start(args, options).done;
}

/** The environment pointing at a mock server. */
export const envFor = (mock: { apiKey: string; baseURL: string }) => ({ FORECASTING_API_KEY: mock.apiKey, FORECASTING_BASE_URL: mock.baseURL });

/** A file's mock server (started with `options`) and scratch folder, made before its tests and removed after them. */
export function useMockAndFolder(options: MockServerOptions): { mock: MockServer; dir: string } {
  const h = {} as { mock: MockServer; dir: string };
  beforeAll(async () => {
    h.mock = await startMockServer(options);
    h.dir = mkdtempSync(join(tmpdir(), 'forecasting-cli-'));
  });
  afterAll(async () => {
    await h.mock.close();
    rmSync(h.dir, { recursive: true, force: true });
  });
  return h;
}
