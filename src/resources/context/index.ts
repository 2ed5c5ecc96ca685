import { APIResource } from '../../core/resource.js';
import { contextOperations, fileOperations } from '../../api/context.js';
import type { APIPromise } from '../../core/api-promise.js';
import type { PagePromise } from '../../core/pagination.js';
import type { RequestOptions } from '../../core/options.js';
import type { ContextFileReplaceParams, ContextFileUpdateParams, ContextFileUploadParams, ContextListParams, ContextNoteUpdateParams } from '../../schemas/context.js';
import type { ContextNoteInput } from '../../schemas/forecasts.js';
import type { ContextFile, ContextNote, ContextReady } from '../../schemas/records/context.js';
import { waitUntilReady, type ContextWaitOptions } from './readiness.js';

/**
 * A question's context notes (`client.questions.context`). A note applies to the question's next
 * forecast only: that forecast uses every note not used yet, and marks them with its id (`usedByTaskId`).
 * @example
 * ```ts
 * await client.questions.context.create(questionId, { text: 'The vote was moved to June.', treatment: 'assume_true' });
 * const { ready } = await client.questions.context.ready(questionId);
 * ```
 */
export class QuestionContext extends APIResource {
  /**
   * Lists the question's notes, newest first, used ones included (`usedByTaskId` set).
   * @example
   * ```ts
   * for await (const note of client.questions.context.list(questionId)) console.log(note.treatment, note.text);
   * ```
   */
  list(questionId: string, params?: ContextListParams, options?: RequestOptions): PagePromise<ContextNote> {
    return this._list(contextOperations.list, [questionId], params, options);
  }

  /**
   * Adds a note for the next forecast: `treatment` is `consider` (default), `look_into`, `assume_true` or `ignore`.
   * @example
   * ```ts
   * const note = await client.questions.context.create(questionId, { text: 'Ignore the leaked poll.', treatment: 'ignore' });
   * ```
   */
  create(questionId: string, params: ContextNoteInput, options?: RequestOptions): APIPromise<ContextNote> {
    return this._call(contextOperations.create, [questionId], params, options);
  }

  /**
   * Changes a note's `text` or `treatment` (the mock refuses a note a forecast already used: 409).
   * @example
   * ```ts
   * await client.questions.context.update(questionId, noteId, { treatment: 'look_into' });
   * ```
   */
  update(questionId: string, noteId: string, params: ContextNoteUpdateParams, options?: RequestOptions): APIPromise<ContextNote> {
    return this._call(contextOperations.update, [questionId, noteId], params, options);
  }

  /**
   * Removes a note.
   * @example
   * ```ts
   * await client.questions.context.delete(questionId, noteId);
   * ```
   */
  delete(questionId: string, noteId: string, options?: RequestOptions): APIPromise<void> {
    return this._call(contextOperations.delete, [questionId, noteId], undefined, options);
  }

  /**
   * Whether every file of the question is ready (`{ready}`). To wait for it, see `questions.files.waitUntilReady`.
   * @example
   * ```ts
   * const { ready } = await client.questions.context.ready(questionId);
   * ```
   */
  ready(questionId: string, options?: RequestOptions): APIPromise<ContextReady> {
    return this._call(contextOperations.ready, [questionId], undefined, options);
  }
}

/**
 * A question's context files (`client.questions.files`): up to 10 files and 30 MiB per question, 10 MiB
 * each. An upload is `processing`, then `ready` (it reaches forecasts) or `failed` (delete it).
 * @example
 * ```ts
 * import { createReadStream } from 'node:fs';
 * await client.questions.files.upload(questionId, { file: createReadStream('report.pdf'), treatment: 'look_into' });
 * await client.questions.files.waitUntilReady(questionId);
 * ```
 */
export class QuestionFiles extends APIResource {
  /**
   * Lists the question's files with their `status`.
   * @example
   * ```ts
   * const files = await client.questions.files.list(questionId).toArray();
   * ```
   */
  list(questionId: string, params?: ContextListParams, options?: RequestOptions): PagePromise<ContextFile> {
    return this._list(fileOperations.list, [questionId], params, options);
  }

  /**
   * Uploads a file as `multipart/form-data`: a `File`, `Blob`, `Buffer` with a `filename`, or a stream
   * (sent as it is read, never retried). At most 10 MiB where the size is known; `userNote` up to 2,000
   * characters; a file cannot be `ignore`d. 403 `UploadsDisabledError` when the organization turned uploads off.
   * @example
   * ```ts
   * await client.questions.files.upload(questionId, { file: Buffer.from('a,b\n1,2'), filename: 'data.csv', artifactType: 'dataset' });
   * ```
   */
  upload(questionId: string, params: ContextFileUploadParams, options?: RequestOptions): APIPromise<ContextFile> {
    return this._call(fileOperations.upload, [questionId], params, options);
  }

  /**
   * Reads a file's status.
   * @example
   * ```ts
   * const { status } = await client.questions.files.retrieve(questionId, fileId);
   * ```
   */
  retrieve(questionId: string, fileId: string, options?: RequestOptions): APIPromise<ContextFile> {
    return this._call(fileOperations.retrieve, [questionId, fileId], undefined, options);
  }

  /**
   * Changes a file's settings (`artifactType`, `treatment`, `userNote`).
   * @example
   * ```ts
   * await client.questions.files.update(questionId, fileId, { treatment: 'assume_true' });
   * ```
   */
  update(questionId: string, fileId: string, params: ContextFileUpdateParams, options?: RequestOptions): APIPromise<ContextFile> {
    return this._call(fileOperations.update, [questionId, fileId], params, options);
  }

  /**
   * Removes a file (the way out for a `failed` one).
   * @example
   * ```ts
   * await client.questions.files.delete(questionId, fileId);
   * ```
   */
  delete(questionId: string, fileId: string, options?: RequestOptions): APIPromise<void> {
    return this._call(fileOperations.delete, [questionId, fileId], undefined, options);
  }

  /**
   * Replaces a file's bytes, keeping its id and settings; it is `processing` again.
   * @example
   * ```ts
   * await client.questions.files.replace(questionId, fileId, { file: new File([text], 'notes.txt') });
   * ```
   */
  replace(questionId: string, fileId: string, params: ContextFileReplaceParams, options?: RequestOptions): APIPromise<ContextFile> {
    return this._call(fileOperations.replace, [questionId, fileId], params, options);
  }

  /**
   * Waits until every file of the question is ready, and resolves with the files. Polls the ready
   * endpoint no faster than its `Retry-After`, else every 1 s doubling to 15 s. A read that fails (no
   * connection, a timeout, a 5xx, a 429) is retried with a backoff growing to 30 s until `timeout`
   * (each retry on the client's `retry` event). Rejects with `ContextFileFailedError` (listing
   * `files`) when a file failed, `ContextWaitTimeoutError` after `timeout` ms, the error of a read
   * that cannot succeed (a 404, a 401), or the signal's reason on abort (the files keep processing).
   * @example
   * ```ts
   * await client.questions.files.waitUntilReady(questionId, { timeout: 10 * 60_000 });
   * ```
   */
  waitUntilReady(questionId: string, options?: ContextWaitOptions): Promise<ContextFile[]> {
    const ctx = { clock: this._client._clock, ready: (id: string, o: RequestOptions) => this._call(contextOperations.ready, [id], undefined, o), list: this.list.bind(this) };
    return waitUntilReady(ctx, questionId, options);
  }
}
