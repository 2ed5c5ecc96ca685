import { BaseClient } from './core/base-client.js';
import type { ClientOptions } from './core/options.js';
import { Questions } from './resources/questions.js';
import { Tags } from './resources/tags.js';

/**
 * The Forecasting Service client.
 *
 * @example
 * ```ts
 * import { ForecastingClient } from 'forecasting-sdk';
 *
 * const client = new ForecastingClient({
 *   apiKey: process.env.FORECASTING_API_KEY,      // the default
 *   baseURL: 'https://forecasts.example.com/api/v1/external',
 * });
 * const question = await client.questions.create({ type: 'binary', title: 'Will it rain in Paris tomorrow?' });
 * ```
 */
export class ForecastingClient extends BaseClient {
  /** Questions: create, read, edit, list, browse, import, draft. */
  readonly questions: Questions = new Questions(this);
  /** Tags used on your questions. */
  readonly tags: Tags = new Tags(this);

  /**
   * @param options - see {@link ClientOptions}. A missing key or base URL throws `ValidationError` naming
   * the option and its environment variable.
   */
  constructor(options: ClientOptions = {}) {
    super(options);
  }
}
