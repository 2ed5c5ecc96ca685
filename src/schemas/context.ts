/**
 * Question context requests: notes, file uploads and their settings (shared with preset files).
 * Checked before sending (and by the mock on receipt), limits included: 10 MiB per file where the
 * size is known, 2,000 characters of `userNote`, the artifact types and treatments.
 * @module
 */
import * as z from 'zod/mini';
import { MAX_FILE_BYTES, MAX_USER_NOTE_LENGTH } from '../api/limits.js';
import { isUploadable, uploadSize, type Uploadable } from '../core/uploads.js';
import { CursorPageParams, exact, rule } from './common.js';
import { ARTIFACT_TYPES, FILE_TREATMENTS } from './enums.js';
import { ContextNoteInput } from './forecasts.js';

/** @internal */
export const TOO_BIG = `must be at most 10 MiB (${MAX_FILE_BYTES} bytes)`;
/** @internal */
export const Id = z.string().check(z.minLength(1));

/** Query of the context lists (`GET /questions/{question_id}/context`, `/files`, `GET /forecast-presets`): paging. */
export const ContextListParams = exact({ ...CursorPageParams });
/**
 * Query of `GET /questions/{question_id}/context` and `GET /questions/{question_id}/files`: paging.
 * @example
 * ```ts
 * const page = await client.questions.files.list(questionId, { limit: 10 });
 * ```
 */
export interface ContextListParams extends z.input<typeof ContextListParams> {}

/** Body of `PATCH /questions/{question_id}/context/{note_id}`. Not shown in the spec: the SDK sends the fields to change. */
export const ContextNoteUpdateParams = z.partial(ContextNoteInput);
/**
 * Body of `PATCH /questions/{question_id}/context/{note_id}`: `text` and/or `treatment` (not shown in the spec: the SDK's choice).
 * @example
 * ```ts
 * const change: ContextNoteUpdateParams = { treatment: 'look_into' };
 * await client.questions.context.update(questionId, noteId, change);
 * ```
 */
export interface ContextNoteUpdateParams extends z.input<typeof ContextNoteUpdateParams> {}

/** A file's settings, sent with an upload and changed by the file PATCH. @internal */
export const fileSettings = {
  /** `user_context` (default), `background`, `evidence_source`, `dataset` or `assumption`. */
  artifactType: z.optional(z.enum(ARTIFACT_TYPES)),
  /** `consider`, `look_into` or `assume_true`: a file cannot be ignored (delete it instead). */
  treatment: z.optional(z.enum(FILE_TREATMENTS, { error: 'must be consider, look_into or assume_true: a file cannot be ignored (delete it instead)' })),
  /** A note on the file, up to 2,000 characters. */
  userNote: z.optional(z.string().check(z.maxLength(MAX_USER_NOTE_LENGTH))),
};

/** The file itself: any upload, at most 10 MiB when its size is known. @internal */
export const fileUpload = {
  /** A `File`, `Blob`, `Buffer`/`Uint8Array`, web `ReadableStream` or Node `Readable`: at most 10 MiB. A stream is sent as it is read (and never retried). */
  file: z.custom<Uploadable>(isUploadable, 'must be a File, Blob, Buffer/Uint8Array or stream').check(rule((f) => (uploadSize(f) ?? 0) <= MAX_FILE_BYTES, '', TOO_BIG)),
  /** The file's name: needed for bytes and streams (a `File` has its own, an `fs.ReadStream` its path's). */
  filename: z.optional(Id),
};

/** Body of `POST /questions/{question_id}/files` (`multipart/form-data`): the `file` and its settings. */
export const ContextFileUploadParams = exact({ ...fileUpload, ...fileSettings });
/**
 * Body of `POST /questions/{question_id}/files` (also of `POST /forecast-presets/{preset_id}/files`): the `file` and its settings.
 * @example
 * ```ts
 * import { createReadStream } from 'node:fs';
 * const upload: ContextFileUploadParams = { file: createReadStream('survey.csv'), artifactType: 'dataset', userNote: 'Raw answers, March wave.' };
 * await client.questions.files.upload(questionId, upload);
 * ```
 */
export interface ContextFileUploadParams extends z.input<typeof ContextFileUploadParams> {}

/** Body of the file PATCH. Not shown in the spec: the SDK sends the settings to change. */
export const ContextFileUpdateParams = exact(fileSettings);
/**
 * Body of `PATCH /questions/{question_id}/files/{file_id}` and of the preset file PATCH: the settings to change (not shown in the spec: the SDK's choice).
 * @example
 * ```ts
 * const settings: ContextFileUpdateParams = { artifactType: 'evidence_source', treatment: 'assume_true' };
 * await client.questions.files.update(questionId, fileId, settings);
 * ```
 */
export interface ContextFileUpdateParams extends z.input<typeof ContextFileUpdateParams> {}

/** Body of `POST /questions/{question_id}/files/{file_id}/replace` (not shown in the spec: the SDK sends the new `file`, as multipart). */
export const ContextFileReplaceParams = exact(fileUpload);
/**
 * Body of `POST /questions/{question_id}/files/{file_id}/replace`: the new bytes (not shown in the spec: the SDK's choice).
 * @example
 * ```ts
 * const replacement: ContextFileReplaceParams = { file: Buffer.from('a,b\n1,3'), filename: 'data.csv' };
 * await client.questions.files.replace(questionId, fileId, replacement);
 * ```
 */
export interface ContextFileReplaceParams extends z.input<typeof ContextFileReplaceParams> {}
