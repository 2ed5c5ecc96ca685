import { APIResource } from '../core/resource.js';
import { questionOperations } from '../api/questions.js';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/options.js';
import type { NormalizeClarifyParams, NormalizeParams, NormalizeReviseParams, QuestionBrowseParams, QuestionCreateParams, QuestionImportParams, QuestionListParams, QuestionUpdateParams } from '../schemas/questions.js';
import type { NormalizeResult, Question } from '../schemas/records/questions.js';
import { QuestionForecasts } from './forecasts/index.js';
import { QuestionSchedule, QuestionWatch } from './schedules.js';
import { QuestionContext, QuestionFiles } from './context/index.js';
import { QuestionShareLinks, QuestionSubscriptions } from './sharing.js';

const ops = questionOperations;

/**
 * Questions: create, read, edit, list and search them, import one from a market, or draft one with AI.
 *
 * @example
 * ```ts
 * const q = await client.questions.create({ type: 'binary', title: 'Will it rain in Paris tomorrow?' });
 * for await (const question of client.questions.list()) console.log(question.title);
 * ```
 */
export class Questions extends APIResource {
  /** The question's forecasts: `list`, `create`. */
  readonly forecasts: QuestionForecasts = new QuestionForecasts(this._client);
  /** The question's schedule of repeated forecasts. */
  readonly schedule: QuestionSchedule = new QuestionSchedule(this._client);
  /** The question's watch (automatic reruns). */
  readonly watch: QuestionWatch = new QuestionWatch(this._client);
  /** The question's context notes (for its next forecast) and whether its files are ready. */
  readonly context: QuestionContext = new QuestionContext(this._client);
  /** The question's context files: upload, edit, replace, remove, wait until ready. */
  readonly files: QuestionFiles = new QuestionFiles(this._client);
  /** The question's share links. */
  readonly shareLinks: QuestionShareLinks = new QuestionShareLinks(this._client);
  /** Your notification subscription to the question: `follow`, `unfollow`. */
  readonly subscription: QuestionSubscriptions = new QuestionSubscriptions(this._client);

  /**
   * Lists your questions, newest first. Awaiting gives the first page; `for await` walks every question.
   * @example
   * ```ts
   * const page = await client.questions.list({ limit: 50 });
   * for await (const q of client.questions.list()) console.log(q.id);
   * ```
   */
  list(params?: QuestionListParams, options?: RequestOptions): PagePromise<Question> {
    return this._list(ops.list, [], params, options);
  }

  /**
   * Creates a question. The type rules are checked before sending: a violation throws
   * `ValidationError` naming the field, and nothing is sent.
   * @example
   * ```ts
   * await client.questions.create({ type: 'numeric', title: 'Brent price on 1 June?', lowerBound: 40, upperBound: 140, scaleType: 'linear' });
   * ```
   */
  create(params: QuestionCreateParams, options?: RequestOptions): APIPromise<Question> {
    return this._call(ops.create, [], params, options);
  }

  /**
   * Reads one question.
   * @example
   * ```ts
   * const q = await client.questions.retrieve(questionId);
   * ```
   */
  retrieve(questionId: string, options?: RequestOptions): APIPromise<Question> {
    return this._call(ops.retrieve, [questionId], undefined, options);
  }

  /**
   * Changes only the fields sent. Once the question has a forecast, only `description`,
   * `resolutionCriteria`, `finePrint`, `visibility` and `tags` may change.
   * @example
   * ```ts
   * await client.questions.update(questionId, { description: 'Resolved from the Met Office record.' });
   * ```
   */
  update(questionId: string, params: QuestionUpdateParams, options?: RequestOptions): APIPromise<Question> {
    return this._call(ops.update, [questionId], params, options);
  }

  /**
   * Searches and filters questions, paging by `limit` and `offset`. Filters beyond paging are not
   * shown in the spec; extra keys are sent as query parameters as given.
   * @example
   * ```ts
   * const all = await client.questions.browse({ limit: 100 }).toArray({ limit: 500 });
   * ```
   */
  browse(params?: QuestionBrowseParams, options?: RequestOptions): PagePromise<Question> {
    return this._list(ops.browse, [], params, options);
  }

  /**
   * Copies a question from a public prediction market; starts no forecast.
   * @example
   * ```ts
   * await client.questions.import({ reference: 'https://market.example/questions/will-x-happen' });
   * ```
   */
  import(params: QuestionImportParams, options?: RequestOptions): APIPromise<Question> {
    return this._call(ops.import, [], params, options);
  }

  /**
   * Drafts a complete question from a rough title (with web search; takes tens of seconds). Saves
   * nothing: pass `result.question` to `create`. May answer `status: 'unsupported'` with `suggestedReframe`.
   * @example
   * ```ts
   * const { question } = await client.questions.normalize({ title: 'bitcoin above 100k?' });
   * ```
   */
  normalize(params: NormalizeParams, options?: RequestOptions): APIPromise<NormalizeResult> {
    return this._call(ops.normalize, [], params, options);
  }

  /**
   * Answers a clarification the drafting asked for. The body is not shown in the spec: see
   * {@link NormalizeClarifyParams}.
   * @example
   * ```ts
   * await client.questions.clarify({ title: 'bitcoin above 100k?', answer: 'By 31 December 2027, on Coinbase' });
   * ```
   */
  clarify(params: NormalizeClarifyParams, options?: RequestOptions): APIPromise<NormalizeResult> {
    return this._call(ops.clarify, [], params, options);
  }

  /**
   * Revises a drafted question with guidance. The body is not shown in the spec: see
   * {@link NormalizeReviseParams}.
   * @example
   * ```ts
   * await client.questions.revise({ question: draft, guidance: 'Use the closing price' });
   * ```
   */
  revise(params: NormalizeReviseParams, options?: RequestOptions): APIPromise<NormalizeResult> {
    return this._call(ops.revise, [], params, options);
  }
}
