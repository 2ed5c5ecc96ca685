/**
 * `forecasting console`: starts the local web console (see `../console/server.ts`) and prints its
 * address with the one-time access token as the first line on stdout; serves until Ctrl-C or SIGTERM.
 * @module
 */
import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { clientFromEnv } from '../env.js';
import { CliError, EXIT, type ExitCode } from '../exit-codes.js';
import { note, out } from '../output.js';

interface ConsoleFlags {
  port?: string;
  open?: boolean;
}

/** Opens `url` in the default browser; a machine without one only gets a note. */
function openBrowser(url: string): void {
  const [command, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
  child.on('error', () => note('could not open a browser: open the address above'));
  child.unref();
}

export async function consoleCommand(cmd: Command): Promise<ExitCode> {
  const flags = cmd.opts<ConsoleFlags>();
  const port = flags.port === undefined ? 0 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new CliError(`--port must be a whole number from 0 to 65535, not ${JSON.stringify(flags.port)}`);
  const client = await clientFromEnv();
  const { startConsole } = await import('../console/server.js');
  const running = await startConsole({ client, baseURL: process.env['FORECASTING_BASE_URL']!, apiKey: process.env['FORECASTING_API_KEY']!, port });
  out(running.url);
  note('The Forecasting console: open the address above (its token is for this run only). Ctrl-C stops it.');
  if (flags.open) openBrowser(running.url);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await running.close();
  return EXIT.ok;
}
