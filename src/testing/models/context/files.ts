/**
 * Question context in the mock: notes, which the next forecast uses up, and the context file state
 * machine (question and preset files alike) on the mock clock: an upload is `processing`, then
 * `ready`, or `failed` when a test asked it to (`service.contextControls.failFile`).
 * @module
 */
import { MAX_FILES_PER_QUESTION, MAX_FILES_TOTAL_BYTES } from '../../../api/limits.js';
import type { ArtifactType, ContextFileStatus, FileTreatment, Treatment } from '../../../schemas/enums.js';
import type { ContextFile, ContextNote } from '../../../schemas/records/context.js';
import type { ScheduledCallback } from '../../clock.js';
import { conflict, MockHttpError } from '../../http.js';
import { collectionKey, type MockStore } from '../../store.js';
import type { MockEnv } from '../../env.js';
import type { ContextFileUpdateParams } from '../../../schemas/context.js';

/**
 * A context note of a question, as a read shows it.
 * @example
 * ```ts
 * const unused: ContextNoteRecord[] = service.store.collection(CONTEXT_NOTES).list((n) => n.questionId === questionId && n.usedByTaskId === null);
 * ```
 */
export interface ContextNoteRecord extends ContextNote {
  questionId: string;
  usedByTaskId: string | null;
  usedAt: string | null;
}
/**
 * The context notes, of every question.
 * @example
 * ```ts
 * const notes = service.store.collection(CONTEXT_NOTES).list((n) => n.questionId === questionId);
 * ```
 */
export const CONTEXT_NOTES = collectionKey<ContextNoteRecord>('contextNotes');

/**
 * A context file of a question (`questionId`) or of a preset (`presetId`).
 * @example
 * ```ts
 * const record: ContextFileRecord | undefined = service.store.collection(CONTEXT_FILES).get(fileId);
 * console.log(record?.status, record?.sizeBytes, new TextDecoder().decode(record?.content)); // the bytes received
 * ```
 */
export interface ContextFileRecord {
  id: string;
  questionId?: string;
  presetId?: string;
  status: ContextFileStatus;
  filename: string;
  contentType: string;
  sizeBytes: number;
  /** The bytes received (never shown by a read). */
  content: Uint8Array;
  artifactType: ArtifactType;
  treatment: FileTreatment;
  userNote: string | null;
  failureReason: string | null;
  /** Set by `contextControls.failFile`: the file fails with this reason when its processing ends. */
  failWith: string | null;
  createdAt: string;
  updatedAt: string;
  /** The end of processing, waiting on the clock. */
  timer: ScheduledCallback | null;
}
/**
 * The context files, of every question and preset.
 * @example
 * ```ts
 * const presetFiles = service.store.collection(CONTEXT_FILES).list((f) => f.presetId === presetId);
 * ```
 */
export const CONTEXT_FILES = collectionKey<ContextFileRecord>('contextFiles');

/**
 * Legal moves of a file; a replace starts `processing` again (a failed file is only ever deleted).
 * @example
 * ```ts
 * FILE_TRANSITIONS['failed']; // [] : a failed file never moves again
 * ```
 */
export const FILE_TRANSITIONS: Readonly<Record<ContextFileStatus, readonly ContextFileStatus[]>> = {
  processing: ['ready', 'failed', 'processing'],
  ready: ['processing'],
  failed: [],
};
/**
 * How long a file is `processing` on the mock clock.
 * @example
 * ```ts
 * const file = await client.questions.files.upload(questionId, { file: Buffer.from('a,b\n1,2'), filename: 'data.csv' }); // processing
 * service.clock.advance(FILE_PROCESSING_MS);
 * expect((await client.questions.files.retrieve(questionId, file.id)).status).toBe('ready');
 * ```
 */
export const FILE_PROCESSING_MS = 10_000;

const iso = (ms: number) => new Date(ms).toISOString();

/** Adds a note to a question. */
export function addNote(env: MockEnv, questionId: string, text: string, treatment: Treatment): ContextNoteRecord {
  const now = iso(env.clock.now());
  return env.store.collection(CONTEXT_NOTES).insert({ id: crypto.randomUUID(), questionId, text, treatment, usedByTaskId: null, usedAt: null, createdAt: now, updatedAt: now });
}

/** A started forecast uses up the question's notes: the next one no longer sees them. */
export function useNotes(env: MockEnv, questionId: string, taskId: string): void {
  const now = iso(env.clock.now());
  for (const note of env.store.collection(CONTEXT_NOTES).list((n) => n.questionId === questionId && n.usedByTaskId === null)) {
    note.usedByTaskId = taskId;
    note.usedAt = now;
  }
}

/** What an upload gives: the file (checked by the operation's schema) and its settings. */
export interface UploadInput {
  file: Blob;
  filename?: string | undefined;
  artifactType?: ArtifactType | undefined;
  treatment?: FileTreatment | undefined;
  userNote?: string | undefined;
}

/** The files of a question or a preset, newest first. */
export const filesOf = (store: MockStore, owner: { questionId?: string; presetId?: string }): ContextFileRecord[] =>
  store.collection(CONTEXT_FILES).list((f) => (owner.questionId ? f.questionId === owner.questionId : f.presetId === owner.presetId));

/**
 * Stores an upload as a `processing` file of its question or preset. A question holds at most 10
 * files and 30 MiB (409 past either); so does a preset (the spec gives no limit there; without one,
 * uploads kept every byte they were sent).
 */
export async function storeFile(env: MockEnv, owner: { questionId: string } | { presetId: string }, input: UploadInput): Promise<ContextFileRecord> {
  const content = new Uint8Array(await input.file.arrayBuffer());
  checkQuota(filesOf(env.store, owner), content.byteLength, undefined, 'questionId' in owner ? 'question' : 'preset');
  const now = iso(env.clock.now());
  const record = env.store.collection(CONTEXT_FILES).insert({
    id: crypto.randomUUID(),
    ...owner,
    status: 'processing',
    filename: input.filename ?? ((input.file as File).name || 'upload'),
    contentType: input.file.type || 'application/octet-stream',
    sizeBytes: content.byteLength,
    content,
    artifactType: input.artifactType ?? 'user_context',
    treatment: input.treatment ?? 'consider',
    userNote: input.userNote ?? null,
    failureReason: null,
    failWith: null,
    createdAt: now,
    updatedAt: now,
    timer: null,
  });
  startProcessing(env, record);
  return record;
}

/** 409 when one more file of `size` bytes would pass a question's 10 files or 30 MiB. */
function checkQuota(files: readonly ContextFileRecord[], size: number, replacing?: ContextFileRecord, owner: 'question' | 'preset' = 'question'): void {
  const others = files.filter((f) => f !== replacing);
  if (!replacing && others.length >= MAX_FILES_PER_QUESTION) {
    throw conflict(`file: a ${owner} holds at most ${MAX_FILES_PER_QUESTION} files; delete one first`);
  }
  if (others.reduce((sum, f) => sum + f.sizeBytes, size) > MAX_FILES_TOTAL_BYTES) {
    throw conflict(`file: a ${owner}'s files may hold at most 30 MiB (${MAX_FILES_TOTAL_BYTES} bytes) in all`);
  }
}

/** Replaces a file's bytes: it is `processing` again. A failed file cannot be replaced (409): delete it. */
export async function replaceFile(env: MockEnv, record: ContextFileRecord, input: { file: Blob; filename?: string | undefined }): Promise<ContextFileRecord> {
  if (!FILE_TRANSITIONS[record.status].includes('processing')) throw conflict(`fileId: a ${record.status} file cannot be replaced; delete it and upload again`);
  const content = new Uint8Array(await input.file.arrayBuffer());
  checkQuota(filesOf(env.store, record), content.byteLength, record, record.questionId ? 'question' : 'preset');
  Object.assign(record, {
    content,
    sizeBytes: content.byteLength,
    filename: input.filename ?? ((input.file as File).name || record.filename),
    contentType: input.file.type || record.contentType,
    status: 'processing',
    updatedAt: iso(env.clock.now()),
  });
  startProcessing(env, record);
  return record;
}

/** Schedules the end of processing: `ready`, or `failed` when a test asked for it. */
function startProcessing(env: MockEnv, record: ContextFileRecord): void {
  record.timer?.cancel();
  record.timer = env.clock.schedule(env.clock.now() + FILE_PROCESSING_MS, () => {
    record.timer = null;
    const to = record.failWith ? 'failed' : 'ready';
    if (!FILE_TRANSITIONS[record.status].includes(to)) return;
    record.status = to;
    record.failureReason = record.failWith;
    record.updatedAt = iso(env.clock.now());
  });
}

/** Changes a file's settings: only those the PATCH body sent (other keys of the body are ignored). */
export function editFile(env: MockEnv, input: ContextFileUpdateParams, record: ContextFileRecord): ContextFileRecord {
  const { artifactType = record.artifactType, treatment = record.treatment, userNote = record.userNote } = input;
  return Object.assign(record, { artifactType, treatment, userNote, updatedAt: iso(env.clock.now()) });
}

/** Deletes a file (and its pending end of processing). */
export function deleteFile(store: MockStore, record: ContextFileRecord): void {
  record.timer?.cancel();
  store.collection(CONTEXT_FILES).delete(record.id);
}

/** The file as a read shows it. */
export function fileView({ content: _c, failWith: _f, timer: _t, ...file }: ContextFileRecord): ContextFile {
  return file;
}

/**
 * The files that keep a forecast from starting (still `processing`), of its question and its preset,
 * as `error.files` of 409 `context_not_ready` lists them.
 */
export function unfinishedFiles(store: MockStore, questionId: string, presetId: string | null): Array<Pick<ContextFile, 'id' | 'status' | 'filename' | 'questionId' | 'presetId'>> {
  return store
    .collection(CONTEXT_FILES)
    .list((f) => f.status === 'processing' && (f.questionId === questionId || (presetId !== null && f.presetId === presetId)))
    .map(({ id, status, filename, questionId, presetId }) => ({ id, status, filename, ...(questionId ? { questionId } : { presetId }) }));
}

/** A file of a question or preset, by id; 404 naming `fileId` otherwise. */
export function findFile(store: MockStore, owner: { questionId?: string; presetId?: string }, id: string): ContextFileRecord {
  const file = store.collection(CONTEXT_FILES).get(id);
  if (!file || (owner.questionId ? file.questionId !== owner.questionId : file.presetId !== owner.presetId)) {
    throw new MockHttpError(404, 'not_found', `fileId: no file ${id} here`);
  }
  return file;
}
