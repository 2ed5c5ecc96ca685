/**
 * Multipart bodies for the upload operations: `{ file, ...fields }` becomes `multipart/form-data`.
 * @module
 */
import { ValidationError } from './errors.js';

/** What an upload's `file` may be. Bytes and streams need a `filename` next to them (or use {@link toFile}). */
export type Uploadable = File | Blob | Uint8Array | ArrayBuffer | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/**
 * Wraps bytes or a stream as a `File` with a name, ready for an upload's `file` field.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * const file = await toFile(await readFile('brief.pdf'), 'brief.pdf', { type: 'application/pdf' });
 * ```
 */
export async function toFile(data: Uploadable, name: string, options: { type?: string } = {}): Promise<File> {
  if (data instanceof File && data.name === name && !options.type) return data;
  const parts: BlobPart[] = [];
  if (data instanceof Blob) parts.push(data);
  else if (data instanceof Uint8Array) parts.push(data as Uint8Array<ArrayBuffer>);
  else if (data instanceof ArrayBuffer) parts.push(data);
  else for await (const chunk of data as AsyncIterable<Uint8Array>) parts.push(chunk as Uint8Array<ArrayBuffer>);
  return new File(parts, name, { type: options.type ?? (data instanceof Blob ? data.type : '') });
}

function isUploadable(value: unknown): value is Uploadable {
  return (
    value instanceof Blob ||
    value instanceof Uint8Array ||
    value instanceof ArrayBuffer ||
    (typeof value === 'object' && value !== null && (Symbol.asyncIterator in value || value instanceof ReadableStream))
  );
}

/**
 * Builds the form: `file` from any {@link Uploadable} (named by `File.name` or the `filename` field),
 * other fields as text (objects as JSON). @internal
 */
export async function toFormData(params: Record<string, unknown>): Promise<FormData> {
  const { file, filename, ...fields } = params;
  if (!isUploadable(file)) {
    throw new ValidationError('must be a File, Blob, Buffer/Uint8Array or stream', 'file');
  }
  const name = file instanceof File ? (typeof filename === 'string' ? filename : file.name) : filename;
  if (typeof name !== 'string' || name === '') {
    throw new ValidationError('a file given as bytes, a Blob or a stream needs a `filename` (or pass a File)', 'filename');
  }
  const form = new FormData();
  form.append('file', await toFile(file, name));
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    form.append(key, typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));
  }
  return form;
}
