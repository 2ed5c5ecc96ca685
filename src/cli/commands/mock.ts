/**
 * `forecasting mock`: the SDK's stateful mock service as a long-lived server (on 127.0.0.1, or
 * `--host`), for integration tests in any language. Prints the address and a key as `export` lines
 * a shell takes as they are, serves until SIGINT or SIGTERM, then closes its connections and exits 0.
 * Its control routes (`/__mock/…`, see src/testing/control.ts) steer it as an in-process test would.
 *
 * Time: the mock runs a scaled clock (`--time-scale`, default 600), and every wait it states to
 * clients is in real seconds (`Retry-After` = mock seconds / scale, rounded up, at least 1), so any
 * HTTP client that honours `Retry-After` waits the scaled time.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { positiveNumber, wholeNumber } from '../args.js';
import { CliError, EXIT, type ExitCode } from '../exit-codes.js';
import { note, out } from '../output.js';

interface MockFlags {
  port?: string;
  timeScale?: string;
  seed?: string;
  apiKey?: string;
  openapi?: string;
  json?: boolean;
  host?: string;
  allowLoopbackReceivers?: boolean;
  manualClock?: boolean;
  rateLimit?: string;
  requestLogLimit?: string;
}

/** `--host`: an IP address (IPv6 with or without brackets) or `localhost`; anything else is a usage error. */
function hostOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const host = /^\[(.*)\]$/.exec(value)?.[1] ?? value;
  if (host !== 'localhost' && isIP(host) === 0) throw new CliError(`--host must be an IP address such as 127.0.0.1, ::1 or 0.0.0.0 (or localhost), got "${value}"`);
  return host;
}

/** `NAME=value` as a line a POSIX shell runs as it is: `export`, the value quoted when it needs it. */
export function exportLine(name: string, value: string): string {
  return `export ${name}=${/^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`}`;
}

/**
 * The package's OpenAPI document when this build has one (`forecasting-sdk/openapi.json`, or
 * `openapi.json` beside the CLI), else `undefined`.
 */
function findOpenApi(): string | undefined {
  const candidates: string[] = [];
  try {
    candidates.push(fileURLToPath(import.meta.resolve('forecasting-sdk/openapi.json')));
  } catch {
    // not exported by this build
  }
  candidates.push(fileURLToPath(new URL('./openapi.json', import.meta.url)), fileURLToPath(new URL('../openapi.json', import.meta.url)));
  for (const path of candidates) {
    if (!existsSync(path)) continue;
    try {
      const text = readFileSync(path, 'utf8');
      JSON.parse(text);
      return text;
    } catch {
      // not a document: look further
    }
  }
  return undefined;
}

/** The document of `--openapi`: a usage error when it cannot be read or is not JSON. */
function readDocument(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read --openapi ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    JSON.parse(text);
  } catch (err) {
    throw new CliError(`--openapi ${path} is not JSON: ${(err as Error).message}`);
  }
  return text;
}

export async function mock(cmd: Command): Promise<ExitCode> {
  const flags = cmd.opts<MockFlags>();
  const port = wholeNumber(flags.port, '--port', 0, 65_535);
  const timeScale = positiveNumber(flags.timeScale, '--time-scale');
  const host = hostOf(flags.host);
  const requestsPerMinute = wholeNumber(flags.rateLimit, '--rate-limit', 1);
  const requestLogLimit = wholeNumber(flags.requestLogLimit, '--request-log-limit', 1);
  if (flags.manualClock && timeScale !== undefined) throw new CliError('--manual-clock and --time-scale exclude each other: a manual clock moves only when told to');
  const given = flags.openapi === undefined ? undefined : readDocument(flags.openapi);
  const { startMockServer, DEFAULT_SERVER_TIME_SCALE, ManualClock, MOCK_CONTROL_PREFIX } = await import('../../testing/index.js');
  const server = await startMockServer({
    port,
    ...(host !== undefined ? { host } : {}),
    ...(flags.manualClock ? { clock: new ManualClock() } : { timeScale: timeScale ?? DEFAULT_SERVER_TIME_SCALE }),
    ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
    ...(flags.apiKey !== undefined ? { apiKeys: [{ key: flags.apiKey }] } : {}),
    ...(requestsPerMinute !== undefined ? { rateLimit: { requestsPerMinute } } : {}),
    ...(requestLogLimit !== undefined ? { requestLogLimit } : {}),
    httpControls: true,
    webhooks: { allowLoopbackReceivers: flags.allowLoopbackReceivers === true, loopbackHint: 'start forecasting mock with --allow-loopback-receivers' },
  }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE' || err.code === 'EADDRNOTAVAIL' || err.code === 'EACCES') throw new CliError(`cannot listen on ${host ?? '127.0.0.1'} port ${port ?? 0}: ${err.code}`);
    throw err;
  });
  const origin = new URL(server.baseURL).origin;
  const openapi = await serveOpenApi(server.service, origin, given);

  // Listening for the signals before the address is printed: a caller may stop it as soon as it reads it.
  const stopped = new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      if (!flags.json) note(`Stopping (${signal}).`);
      void server.close().then(resolve, resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });

  const info = {
    baseURL: server.baseURL,
    apiKey: server.apiKey,
    host: host ?? '127.0.0.1',
    port: Number(new URL(origin).port),
    timeScale: flags.manualClock ? null : (timeScale ?? DEFAULT_SERVER_TIME_SCALE),
    seed: flags.seed ?? null,
    openapi: openapi ? `${origin}/openapi.json` : null,
    control: `${origin}${MOCK_CONTROL_PREFIX}`,
    loopbackReceivers: flags.allowLoopbackReceivers === true,
  };
  if (flags.json) process.stdout.write(`${JSON.stringify(info)}\n`);
  else {
    out(exportLine('FORECASTING_BASE_URL', info.baseURL));
    out(exportLine('FORECASTING_API_KEY', info.apiKey));
    const time = info.timeScale === null ? 'its clock moves only when POST /__mock/clock/advance moves it' : `mock time runs ${info.timeScale}x real time`;
    note(`Forecasting mock service on ${origin}: ${time}${info.seed === null ? '' : `, seed ${info.seed}`}.`);
    if (host === '0.0.0.0' || host === '::') note(`Listening on every interface (${host}): from another machine or a container, use this machine's address instead of ${new URL(origin).hostname}.`);
    note(`Control routes: ${info.control} (the same key; GET it for the list).`);
    note(info.loopbackReceivers ? 'Webhooks: receivers on loopback addresses (127.0.0.1, [::1], localhost) are called.' : 'Webhooks: recorded, not sent (--allow-loopback-receivers calls receivers on 127.0.0.1).');
    note(openapi ? `OpenAPI document: ${info.openapi}` : 'No OpenAPI document in this build.');
    note('Ctrl-C (or SIGTERM) stops it.');
  }
  // Serve until told to stop; the server keeps the process alive.
  await stopped;

  return EXIT.ok;
}

/**
 * Serves the OpenAPI document at `GET /openapi.json` when the build has one and the mock does not
 * already serve it itself. Returns whether it is served.
 */
async function serveOpenApi(service: { handle(request: Request): Promise<Response>; requests: { clear(): void } }, origin: string, given: string | undefined): Promise<boolean> {
  if (given === undefined) {
    const probe = () => service.handle(new Request(`${origin}/openapi.json`)).then((r) => r.status === 200, () => false);
    if (await probe().finally(() => service.requests.clear())) return true;
  }
  const packaged = given === undefined ? findOpenApi() : undefined;
  const { withMockControls } = await import('../../testing/index.js');
  // The package's document describes the real service; the one the mock serves adds its control routes.
  const document = given ?? (packaged && JSON.stringify(withMockControls(JSON.parse(packaged) as Record<string, unknown>, origin)));
  if (!document) return false;
  const handle = service.handle.bind(service);
  service.handle = async (request: Request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/openapi.json' && (request.method === 'GET' || request.method === 'HEAD')) {
      return new Response(request.method === 'HEAD' ? null : document, { status: 200, headers: { 'content-type': 'application/json' } });
    }
    return handle(request);
  };
  return true;
}


