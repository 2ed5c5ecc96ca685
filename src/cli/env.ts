/**
 * The client the commands use, configured from the environment: `FORECASTING_API_KEY` and
 * `FORECASTING_BASE_URL`. Checked here first, so a missing one is a usage error that names the
 * variable, not a message about the constructor's options.
 * @module
 */
import type { ClientOptions, ForecastingClient } from '../index.js';
import { CliError } from './exit-codes.js';
import { addSecret } from './report.js';

/** How long a command's calls may take and how often they retry, where the SDK's defaults do not suit it. */
export type CallLimits = Pick<ClientOptions, 'timeout' | 'maxRetries' | 'maxRetryAfter'>;

/**
 * A client from the environment, with `limits` over the SDK's defaults; a variable missing is a
 * {@link CliError} naming it. With `whenSending` (commands that send params, whose first request is
 * no wait: a wait would retry the failure), that error comes with the first request, from a client
 * that sends nothing (as the cause of the SDK's connection error, which `report` unwraps): a mistake
 * in the command itself (a required flag left out), which the SDK finds before sending, is said first.
 */
export async function clientFromEnv(limits: CallLimits = {}, whenSending = false): Promise<ForecastingClient> {
  const apiKey = process.env['FORECASTING_API_KEY'];
  const baseURL = process.env['FORECASTING_BASE_URL'];
  const unset = !apiKey
    ? new CliError('FORECASTING_API_KEY is not set: export your API key (pre_…), or the one `forecasting mock` prints')
    : !baseURL
      ? new CliError('FORECASTING_BASE_URL is not set: export the service address ending in /api/v1/external, or the one `forecasting mock` prints')
      : undefined;
  if (unset && !whenSending) throw unset;
  addSecret(apiKey);
  const { ForecastingClient } = await import('../index.js');
  // The SDK's own log lines would interleave with the command's output: errors reach the user as the command's one line.
  if (unset === undefined) return new ForecastingClient({ apiKey: apiKey!, baseURL: baseURL!, logLevel: 'off', ...limits });
  return new ForecastingClient({
    apiKey: 'pre_unset',
    baseURL: 'http://127.0.0.1/api/v1/external',
    logLevel: 'off',
    ...limits,
    maxRetries: 0,
    fetch: () => Promise.reject(unset),
  });
}

