/**
 * `forecasting console`: starts the local web console (see `../console/server.ts`) and prints its
 * address with the one-time access token as the first line on stdout; serves until Ctrl-C or SIGTERM.
 * @module
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { wholeNumber } from '../args.js';
import { clientFromEnv, type CallLimits } from '../env.js';
import { CliError, EXIT, type ExitCode } from '../exit-codes.js';
import { note, out } from '../output.js';

/**
 * A page waits for the service about 25 s at most: 10 s an attempt, one retry, and a `Retry-After`
 * of up to 5 s honoured before it (a longer one shows as the page's error at once). The SDK's
 * defaults (60 s an attempt, two retries, waits of a minute) suit a script, not a person at a page.
 */
const PAGE_LIMITS: CallLimits = { timeout: 10_000, maxRetries: 1, maxRetryAfter: 5_000 };

interface ConsoleFlags {
  port?: string;
  open?: boolean;
}

/**
 * Opens `url` in the default browser through a file only this user can read that redirects to it:
 * the address with its token never shows in the process list (`ps`), where any local user would see it.
 * Returns the removal of that file.
 */
function openBrowser(url: string): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'forecasting-console-'));
  const file = join(dir, 'open.html');
  writeFileSync(file, `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${url}"><title>Forecasting console</title>`, { mode: 0o600 });
  const target = pathToFileURL(file).href;
  const [command, args] = process.platform === 'darwin' ? ['open', [target]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', target]] : ['xdg-open', [target]];
  const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
  child.on('error', () => note('could not open a browser: open the address above'));
  child.unref();
  return () => rmSync(dir, { recursive: true, force: true });
}

export async function consoleCommand(cmd: Command): Promise<ExitCode> {
  const flags = cmd.opts<ConsoleFlags>();
  const port = wholeNumber(flags.port, '--port', 0, 65_535) ?? 0;
  const client = await clientFromEnv(PAGE_LIMITS);
  const { startConsole } = await import('../console/server.js');
  const running = await startConsole({ client, baseURL: process.env['FORECASTING_BASE_URL']!, apiKey: process.env['FORECASTING_API_KEY']!, port }).catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new CliError(`--port ${port} is in use on 127.0.0.1: choose another, or leave --port out for a free one`);
    throw err;
  });
  out(running.url);
  note('The Forecasting console: open the address above (its token opens one browser, once). Ctrl-C stops it.');
  const removeOpener = flags.open ? openBrowser(running.url) : undefined;
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  removeOpener?.();
  await running.close();
  return EXIT.ok;
}
