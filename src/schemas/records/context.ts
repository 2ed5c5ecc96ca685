/**
 * Question context records: notes, files and the readiness answer. The spec shows a note's `text`
 * and `treatment`, a file's `id` and `status`, and `{ready}`; the other fields are this SDK's
 * lenient reading (the mock sends them). The schemas load only with `validateResponses`.
 * @module
 */
import * as z from 'zod/mini';
import { Timestamp, exact, openEnum, openString } from '../common.js';
import { TREATMENTS, type ArtifactType, type ContextFileStatus, type FileTreatment } from '../enums.js';

const optionalTime = z.optional(Timestamp);
const optionalText = z.optional(z.nullable(z.string()));

export const ContextNote = exact({
  id: z.string(),
  text: z.string(),
  /** `consider`, `look_into`, `assume_true` or `ignore`. */
  treatment: openEnum(TREATMENTS),
  /** The question it belongs to. */
  questionId: z.optional(z.string()),
  /**
   * The forecast that used it, or null while the next forecast has yet to start: a note applies to
   * the next forecast only. Not shown in the spec: the SDK's choice (the mock sets it).
   */
  usedByTaskId: z.optional(z.nullable(z.string())),
  /** When that forecast started. Not shown in the spec: the SDK's choice. */
  usedAt: z.optional(z.nullable(Timestamp)),
  createdAt: optionalTime,
  updatedAt: optionalTime,
});
/**
 * A context note on a question, used by its next forecast only. Not shown in the spec beyond `text`
 * and `treatment`: `usedByTaskId` and `usedAt` (null until a forecast used it) are the SDK's choice.
 * @example
 * ```ts
 * const pending = (await client.questions.context.list(questionId).toArray()).filter((n) => !n.usedByTaskId);
 * ```
 */
export interface ContextNote extends z.output<typeof ContextNote> {}

export const ContextFile = exact({
  id: z.string(),
  /** `processing` at first, then `ready` or `failed`; a failed file never becomes ready. */
  status: openString<ContextFileStatus>(),
  /** The question it belongs to (a question file). */
  questionId: z.optional(z.string()),
  /** The preset it belongs to (a preset file). */
  presetId: z.optional(z.string()),
  filename: z.optional(z.string()),
  /** The media type it was sent with. */
  contentType: z.optional(z.string()),
  /** Its size in bytes. */
  sizeBytes: z.optional(z.number()),
  /** `user_context`, `background`, `evidence_source`, `dataset` or `assumption`. */
  artifactType: z.optional(openString<ArtifactType>()),
  /** `consider`, `look_into` or `assume_true`. */
  treatment: z.optional(openString<FileTreatment>()),
  /** Up to 2,000 characters. */
  userNote: optionalText,
  /** Why it failed, on `failed`. */
  failureReason: optionalText,
  createdAt: optionalTime,
  updatedAt: optionalTime,
});
/**
 * A context file of a question or a preset. Not shown in the spec beyond `id` and `status`: the
 * other fields are the SDK's lenient reading.
 * @example
 * ```ts
 * const file = await client.questions.files.retrieve(questionId, fileId);
 * if (file.status === 'failed') await client.questions.files.delete(questionId, fileId);
 * ```
 */
export interface ContextFile extends z.output<typeof ContextFile> {}

export const ContextReady = exact({
  /** True when every file of the question is ready (also when it has none). */
  ready: z.boolean(),
});
/** The answer of `GET /questions/{question_id}/context/ready`. */
export interface ContextReady extends z.output<typeof ContextReady> {}
