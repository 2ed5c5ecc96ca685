import { APIResource } from '../core/resource.js';
import { questionTemplateFileOperations, questionTemplateOperations } from '../api/templates.js';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/options.js';
import type { QuestionTemplateApplyParams, QuestionTemplateCreateParams, QuestionTemplateFileUpdateParams, QuestionTemplateFileUploadParams, QuestionTemplateFillParams, QuestionTemplateFromQuestionParams, QuestionTemplateListParams, QuestionTemplateUpdateParams } from '../schemas/templates.js';
import type { QuestionTemplate, QuestionTemplateApplication, QuestionTemplateFile, QuestionTemplateFill } from '../schemas/records/templates.js';

const ops = questionTemplateOperations;
const fileOps = questionTemplateFileOperations;

/**
 * A template's files (`client.questionTemplates.files`): up to 10 MiB each, sent as
 * `multipart/form-data`; a file cannot be `ignore`d (delete it instead).
 * @example
 * ```ts
 * const file = await client.questionTemplates.files.upload(templateId, { file: new File(['2010-2025 rainfall'], 'rain.csv') });
 * console.log(file.status); // 'processing', then 'ready'
 * ```
 */
export class QuestionTemplateFiles extends APIResource {
  /**
   * Uploads a file to a template. `file` may be a `File`, a `Blob`, bytes or a stream (bytes and
   * streams need `filename`); a known size over 10 MiB is refused before sending.
   * @example
   * ```ts
   * await client.questionTemplates.files.upload(templateId, { file: bytes, filename: 'gauges.csv', artifactType: 'dataset' });
   * ```
   */
  upload(templateId: string, params: QuestionTemplateFileUploadParams, options?: RequestOptions): APIPromise<QuestionTemplateFile> {
    return this._call(fileOps.upload, [templateId], params, options);
  }

  /**
   * Reads a template file (its `status`: `processing`, `ready` or `failed`).
   * @example
   * ```ts
   * const { status } = await client.questionTemplates.files.retrieve(templateId, fileId);
   * ```
   */
  retrieve(templateId: string, fileId: string, options?: RequestOptions): APIPromise<QuestionTemplateFile> {
    return this._call(fileOps.retrieve, [templateId, fileId], undefined, options);
  }

  /**
   * Changes a file's settings: `artifactType`, `treatment` (not `ignore`), `userNote`.
   * @example
   * ```ts
   * await client.questionTemplates.files.update(templateId, fileId, { treatment: 'assume_true' });
   * ```
   */
  update(templateId: string, fileId: string, params: QuestionTemplateFileUpdateParams, options?: RequestOptions): APIPromise<QuestionTemplateFile> {
    return this._call(fileOps.update, [templateId, fileId], params, options);
  }

  /**
   * Deletes a template file.
   * @example
   * ```ts
   * await client.questionTemplates.files.delete(templateId, fileId);
   * ```
   */
  delete(templateId: string, fileId: string, options?: RequestOptions): APIPromise<void> {
    return this._call(fileOps.delete, [templateId, fileId], undefined, options);
  }
}

/**
 * Question templates: questions with `{key}` blanks, `builtin` (the service's), `organization` or
 * `personal`. Build a question from one with `questions.create({ templateId, templateValues })` or
 * `forecasts.create({ question: { templateId, templateValues } })`.
 *
 * @example
 * ```ts
 * const template = await client.questionTemplates.create({
 *   scope: 'personal',
 *   name: 'Rain in a city',
 *   questionType: 'binary',
 *   fields: { title: 'Will it rain in {city} on {date}?' },
 *   blanks: [{ key: 'city' }, { key: 'date' }],
 * });
 * const question = await client.questions.create({ templateId: template.id, templateValues: { city: 'Paris', date: '1 June 2027' } });
 * ```
 */
export class QuestionTemplates extends APIResource {
  /** The template's files. */
  readonly files: QuestionTemplateFiles = new QuestionTemplateFiles(this._client);

  /**
   * Lists the templates you can see, each with its `blanks`; `scope` keeps one kind.
   * @example
   * ```ts
   * for await (const t of client.questionTemplates.list({ scope: 'builtin' })) console.log(t.name);
   * ```
   */
  list(params?: QuestionTemplateListParams, options?: RequestOptions): PagePromise<QuestionTemplate> {
    return this._list(ops.list, [], params, options);
  }

  /**
   * Adds a template. A key used in `fields` but not declared in `blanks`, declared but not used, or
   * declared twice throws `ValidationError` naming the key, and nothing is sent. An `organization`
   * template needs an organization admin (else 403).
   * @example
   * ```ts
   * await client.questionTemplates.create({
   *   scope: 'organization',
   *   name: 'Launch by a date',
   *   questionType: 'binary',
   *   fields: { title: 'Will {product} launch before {date}?', finePrint: 'A launch is a public {{GA}} release.' },
   *   blanks: [{ key: 'product' }, { key: 'date', hint: '1 June 2027' }],
   * });
   * ```
   */
  create(params: QuestionTemplateCreateParams, options?: RequestOptions): APIPromise<QuestionTemplate> {
    return this._call(ops.create, [], params, options);
  }

  /**
   * Saves a question as a template (with no blanks; add some with `update`).
   * @example
   * ```ts
   * const template = await client.questionTemplates.createFromQuestion({ questionId, scope: 'personal', name: 'Like this one' });
   * ```
   */
  createFromQuestion(params: QuestionTemplateFromQuestionParams, options?: RequestOptions): APIPromise<QuestionTemplate> {
    return this._call(ops.createFromQuestion, [], params, options);
  }

  /**
   * Reads one template.
   * @example
   * ```ts
   * const template = await client.questionTemplates.retrieve(templateId);
   * ```
   */
  retrieve(templateId: string, options?: RequestOptions): APIPromise<QuestionTemplate> {
    return this._call(ops.retrieve, [templateId], undefined, options);
  }

  /**
   * Edits a template; `fields` and `blanks` replace the template's. Questions built from it before
   * never change. Builtin templates cannot be edited; an organization's needs an admin.
   * @example
   * ```ts
   * await client.questionTemplates.update(templateId, { name: 'Rain in a European city' });
   * ```
   */
  update(templateId: string, params: QuestionTemplateUpdateParams, options?: RequestOptions): APIPromise<QuestionTemplate> {
    return this._call(ops.update, [templateId], params, options);
  }

  /**
   * Deletes a template; questions built from it keep their `sourceTemplate`.
   * @example
   * ```ts
   * await client.questionTemplates.delete(templateId);
   * ```
   */
  delete(templateId: string, options?: RequestOptions): APIPromise<void> {
    return this._call(ops.delete, [templateId], undefined, options);
  }

  /**
   * Shows the question the template gives for `templateValues` (and fields that win over the
   * template's), without saving it.
   * @example
   * ```ts
   * const { question } = await client.questionTemplates.apply(templateId, { templateValues: { city: 'Oslo', date: '1 June 2027' } });
   * ```
   */
  apply(templateId: string, params?: QuestionTemplateApplyParams, options?: RequestOptions): APIPromise<QuestionTemplateApplication> {
    return this._call(ops.apply, [templateId], params, options);
  }

  /**
   * Fills the blanks from a prompt (with AI): the answer holds `templateValues` for every blank, the
   * values you passed kept as they are. Nothing is saved.
   * @example
   * ```ts
   * const { templateValues } = await client.questionTemplates.fill(templateId, { prompt: 'Paris, 1 June 2027' });
   * ```
   */
  fill(templateId: string, params: QuestionTemplateFillParams, options?: RequestOptions): APIPromise<QuestionTemplateFill> {
    return this._call(ops.fill, [templateId], params, options);
  }
}
