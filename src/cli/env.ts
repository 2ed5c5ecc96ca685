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

/** A client from the environment, with `limits` over the SDK's defaults. */
export async function clientFromEnv(limits: CallLimits = {}): Promise<ForecastingClient> {
  const apiKey = process.env['FORECASTING_API_KEY'];
  const baseURL = process.env['FORECASTING_BASE_URL'];
  if (!apiKey) throw new CliError('FORECASTING_API_KEY is not set: export your API key (pre_…), or the one `forecasting mock` prints');
  if (!baseURL) throw new CliError('FORECASTING_BASE_URL is not set: export the service address ending in /api/v1/external, or the one `forecasting mock` prints');
  addSecret(apiKey);
  const { ForecastingClient } = await import('../index.js');
  // The SDK's own log lines would interleave with the command's output: errors reach the user as the command's one line.
  return new ForecastingClient({ apiKey, baseURL, logLevel: 'off', ...limits });
}
