import { BaseClient } from './core/base-client.js';
import { declaredAt, SPEC_ERRORS } from './api/error-rules.js';
import { finalOfHeld } from './api/held-tasks.js';
import type { ClientOptions } from './core/options.js';
import { Questions } from './resources/questions.js';
import { Tags } from './resources/tags.js';
import { Forecasts, RunModes } from './resources/forecasts/index.js';
import { Schedules, Watches } from './resources/schedules.js';
import { CreditsResource } from './resources/credits.js';
import { Webhooks } from './resources/webhooks.js';
import { Decisions } from './resources/decisions/index.js';
import { Presets } from './resources/presets.js';
import { QuestionTemplates } from './resources/templates.js';
import { Connections } from './resources/connections.js';

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
  /** Forecasts: start, read, wait for, cancel, one or many at a time; chat about them. */
  readonly forecasts: Forecasts = new Forecasts(this);
  /** Run modes, their rough times and prices. */
  readonly runModes: RunModes = new RunModes(this);
  /** Every schedule (a question's own is `questions.schedule`). */
  readonly schedules: Schedules = new Schedules(this);
  /** Every watch (a question's own is `questions.watch`). */
  readonly watches: Watches = new Watches(this);
  /** The organization's credits. */
  readonly credits: CreditsResource = new CreditsResource(this);
  /** Webhooks and their deliveries (`client.webhooks.deliveries`). */
  readonly webhooks: Webhooks = new Webhooks(this);
  /** Decisions: a choice among 2 to 4 options with a map of questions, drafts, conditions, a summary and priced forecasts. */
  readonly decisions: Decisions = new Decisions(this);
  /** Forecast presets, their files (`client.presets.files`) and the default presets. */
  readonly presets: Presets = new Presets(this);
  /** Question templates: questions with `{key}` blanks, and their files. */
  readonly questionTemplates: QuestionTemplates = new QuestionTemplates(this);
  /** Connections to remote tool servers (MCP servers) that forecasts may call. */
  readonly connections: Connections = new Connections(this);

  /**
   * @param options - see {@link ClientOptions}. A missing key or base URL throws `ValidationError` naming
   * the option and its environment variable. With a `coordinator`, the client attaches to it here.
   */
  constructor(options: ClientOptions = {}) {
    // The schemas are chunks of their own: the params schemas (and zod) load with the first call
    // that checks params, the record schemas only when `validateResponses` is on. The spec's error
    // codes are handed to the core, which knows only the statuses.
    super(options, {
      params: () => import('./schemas/params.js').then((m) => ({ schemaOf: m.paramsSchemaOf, validate: m.validate })),
      records: () => import('./schemas/records/index.js').then((m) => m.checkRecord),
      errorRules: SPEC_ERRORS,
      reconcileWith: finalOfHeld,
      declaredAt,
    });
  }
}
