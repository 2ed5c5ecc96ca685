/**
 * Other runtimes from the npm registry, pinned and cached outside the repository, and what the
 * runtime tests share: a mock per run and a relay that keeps the mock's webhook calls.
 *
 * Cache: `$FORECASTING_SDK_RUNTIME_CACHE`, else `${XDG_CACHE_HOME:-~/.cache}/forecasting-sdk/runtimes`,
 * one folder per `<pkg>@<version>`, installed with `npm install --prefer-offline` into a temporary
 * folder and renamed into place when complete (so parallel runs never see half an install), then
 * reused as it is.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import type { Miniflare, MiniflareOptions } from './miniflare.js';

const run = promisify(execFile);

/** A runtime package: what to install, and the file that proves the install complete. */
export interface RuntimePackage {
  pkg: string;
  version: string;
  /** Relative to the install folder: the binary, or the module to import. */
  entry: string;
}

/** The pinned runtimes. Bump a version here (and in the README's support table) to move. */
export const RUNTIMES = {
  node22: { pkg: 'node', version: '22.23.3', entry: 'node_modules/node/bin/node' },
  node24: { pkg: 'node', version: '24.21.0', entry: 'node_modules/node/bin/node' },
  bun: { pkg: 'bun', version: '1.4.5', entry: 'node_modules/.bin/bun' },
  deno: { pkg: 'deno', version: '2.9.6', entry: 'node_modules/.bin/deno' },
  // The last miniflare line that runs on Node 20 (newer ones need Node 22); brings workerd 1.20260426.1.
  miniflare: { pkg: 'miniflare', version: '4.20260426.0', entry: 'node_modules/miniflare/dist/src/index.js' },
} as const satisfies Record<string, RuntimePackage>;

/** The cache folder of the runtimes. */
export function cacheRoot(): string {
  const base = process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  return process.env['FORECASTING_SDK_RUNTIME_CACHE'] || join(base, 'forecasting-sdk', 'runtimes');
}

/** Installs `runtime` into the cache unless it is there; resolves to the absolute path of its entry. */
export async function ensureRuntime(runtime: RuntimePackage): Promise<{ path: string; installed: boolean }> {
  const spec = `${runtime.pkg}@${runtime.version}`;
  const dir = join(cacheRoot(), spec);
  const path = join(dir, runtime.entry);
  if (existsSync(path)) return { path, installed: false };
  // A folder without its entry was left by hand or by a crash: start again.
  rmSync(dir, { recursive: true, force: true });
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  mkdirSync(tmp, { recursive: true });
  writeFileSync(join(tmp, 'package.json'), JSON.stringify({ private: true, description: `${spec}, for forecasting-sdk's runtime tests` }));
  try {
    // cwd is the folder itself: from its parent, `node@22.23.3` would name the cache folder, not the package.
    await run('npm', ['install', '--prefix', tmp, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', spec], {
      cwd: tmp,
      encoding: 'utf8',
      timeout: 540_000,
    });
    if (!existsSync(join(tmp, runtime.entry))) throw new Error(`npm install ${spec} left no ${runtime.entry}`);
    try {
      renameSync(tmp, dir);
    } catch (err) {
      // Another run finished first: use its install.
      if (!existsSync(path)) throw err;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return { path, installed: true };
}

/** One webhook call as the relay received it: the raw body and the headers. */
export interface RelayedCall {
  body: string;
  headers: IncomingHttpHeaders;
}

/**
 * A webhook receiver on 127.0.0.1 for programs in other runtimes: `POST /hooks/<tag>` keeps the call
 * (raw body, headers) and answers 200; `GET /hooks/<tag>` lists the calls kept for that tag.
 */
export async function startRelay(): Promise<{ url: string; close(): Promise<void> }> {
  const calls = new Map<string, RelayedCall[]>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const key = req.url ?? '/';
    const list = calls.get(key) ?? [];
    calls.set(key, list);
    if (req.method === 'POST') {
      list.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(200).end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(list));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What the core path reports (test/runtimes/fixtures/core-path.cjs). */
export interface CorePathResult {
  module: 'esm' | 'cjs';
  status: string;
  probability: number;
  pages: number[];
  items: number;
  event: string;
  refused: string;
  /** The operations the SDK's tracing channel told of (none where the runtime has no such channel). */
  traced: string[];
  crypto?: string;
}

/** The result every runtime must report: a completed forecast, three pages of one, the verified event, a tampered copy refused. */
export const EXPECTED: Omit<CorePathResult, 'module' | 'probability' | 'crypto' | 'traced'> = {
  status: 'completed',
  pages: [1, 1, 1],
  items: 3,
  event: 'forecast.completed',
  refused: 'no_matching_signature',
};

let ownDenoDir: string | undefined;
/**
 * Deno's cache of this test run alone: Deno keeps what it learned of a CommonJS file by its path, so
 * a build at the same path (a second clone in the same folder) could be served the old file's chunks.
 */
function denoDir(): string {
  return (ownDenoDir ??= mkdtempSync(join(tmpdir(), 'forecasting-sdk-deno-')));
}

/** Removes the Deno cache of this run, if one was made. */
export function removeDenoDir(): void {
  if (ownDenoDir) rmSync(ownDenoDir, { recursive: true, force: true });
  ownDenoDir = undefined;
}

/** Runs a program, resolving with its exit code and output (never rejecting on a non-zero exit). */
export async function runProgram(
  file: string,
  args: string[],
  options: { cwd: string; timeout: number; env?: Record<string, string> },
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { env, ...rest } = options;
  return run(file, args, { ...rest, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', DENO_DIR: denoDir(), ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code?: number | string; stdout?: string; stderr?: string; signal?: string }) => ({
      code: typeof err.code === 'number' ? err.code : 1,
      stdout: err.stdout ?? '',
      stderr: `${err.stderr ?? ''}${err.signal ? `\n(stopped by ${err.signal})` : ''}`,
    }),
  );
}

/**
 * miniflare's `Miniflare` class, from the runtime cache (installed there on first use). A Worker's
 * outbound requests go through this process's fetch (miniflare's undici), where the tests' guard
 * holds them to loopback as it does Node's own (test/_setup/loopback-only.ts): workerd is no Node.
 */
export async function loadMiniflare(): Promise<typeof Miniflare> {
  const { path } = await ensureRuntime(RUNTIMES.miniflare);
  const miniflare = (await import(pathToFileURL(path).href)) as { Miniflare: typeof Miniflare; fetch: (request: Request) => Promise<Response> };
  return class GuardedMiniflare extends miniflare.Miniflare {
    constructor(options: MiniflareOptions) {
      super({ outboundService: (request) => miniflare.fetch(request), ...options });
    }
  };
}

/** The compatibility date Workers declare here: the workerd release the pinned miniflare brings. */
export const COMPATIBILITY_DATE = '2026-04-26';

/**
 * Bundles a Worker as a Workers project does (esbuild, `--platform=neutral`, conditions `workerd`,
 * `worker`, `browser`) into `<outdir>/<name>.js`; `forecasting-sdk` resolves to this repository's
 * built package through its `exports`.
 */
export async function bundleWorker(entry: string, outdir: string, name: string): Promise<string> {
  const outfile = join(outdir, `${name}.js`);
  await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'neutral', conditions: ['workerd', 'worker', 'browser'], outfile, logLevel: 'error' });
  return outfile;
}
