/**
 * Multipart bodies for the upload operations: `{ file, ...fields }` becomes `multipart/form-data`,
 * written by hand around the file so that a stream is sent as it is read, never collected first.
 * @module
 */
import { toJSONText, ValidationError } from './errors.js';
import type { Redact } from './redact.js';

/**
 * What an upload's `file` may be: a `File` or `Blob`; bytes (`Buffer`, `Uint8Array`, `ArrayBuffer`);
 * or a stream (a web `ReadableStream`, a Node `Readable` such as `fs.createReadStream(path)`, any
 * async iterable of bytes). Bytes and streams need a `filename` next to them (an `fs.ReadStream`
 * takes its path's); or use {@link toFile}.
 * @example
 * ```ts
 * const file: Uploadable = await toFile(readFileSync('notes.pdf'), 'notes.pdf'); // or a File, a Blob, a stream
 * ```
 */
export type Uploadable = File | Blob | Uint8Array | ArrayBuffer | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/**
 * Wraps bytes or a stream as a `File` with a name, ready for an upload's `file` field. A stream is
 * read into memory to become a `File`: to send a large stream as it is read, pass the stream itself
 * as `file` with a `filename`.
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
  if (isBytes(data)) parts.push(data as BlobPart);
  else for await (const chunk of data as AsyncIterable<Uint8Array>) parts.push(chunk as Uint8Array<ArrayBuffer>);
  return new File(parts, name, { type: options.type ?? (data instanceof Blob ? data.type : '') });
}

/** A file whose bytes are at hand (so its size is known): a Blob, or bytes. */
const isBytes = (value: unknown): value is Blob | Uint8Array | ArrayBuffer =>
  value instanceof Blob || value instanceof Uint8Array || value instanceof ArrayBuffer;

/** Whether `value` can be an upload's `file`. @internal */
export function isUploadable(value: unknown): value is Uploadable {
  return isBytes(value) || (typeof value === 'object' && value !== null && (Symbol.asyncIterator in value || value instanceof ReadableStream));
}

/** The size of an upload in bytes, when it is known without reading it (not for a stream). @internal */
export function uploadSize(value: unknown): number | undefined {
  return value instanceof Blob ? value.size : value instanceof Uint8Array || value instanceof ArrayBuffer ? value.byteLength : undefined;
}

/** A multipart body: a `Blob` when the file's bytes are at hand, else a stream pulled as it is sent. @internal */
export interface MultipartBody {
  body: Blob | ReadableStream<Uint8Array>;
  /** `multipart/form-data; boundary=…` */
  type: string;
}

/** A header value in quotes, as browsers write it: `"`, CR and LF percent-encoded. */
const quoted = (text: string) => `"${text.replace(/["\r\n]/g, encodeURIComponent)}"`;

/**
 * Builds the form: `file` from any {@link Uploadable} (named by the `filename` field, `File.name` or
 * an `fs.ReadStream`'s path), other fields as text (objects as JSON). A stream is read one chunk at
 * a time, as the request sends it. @internal
 */
export function toMultipart(params: Record<string, unknown>, redact?: Redact): MultipartBody {
  const { file, filename, ...fields } = params;
  if (!isUploadable(file)) throw new ValidationError('must be a File, Blob, Buffer/Uint8Array or stream', 'file');
  // A reader elsewhere holds it: its bytes are not ours to send (and getReader() would throw a bare TypeError).
  if (file instanceof ReadableStream && file.locked) throw new ValidationError('is a ReadableStream another reader has locked: pass a stream nothing else reads', 'file');
  const own = file as { name?: unknown; path?: unknown };
  const name = filename || (typeof own.name === 'string' ? own.name : typeof own.path === 'string' ? own.path.split(/[\\/]/).pop() : '');
  if (typeof name !== 'string' || !name) {
    throw new ValidationError('a file given as bytes, a Blob or a stream needs a `filename` (or pass a File)', 'filename');
  }
  const boundary = `----forecasting-sdk-${crypto.randomUUID()}`;
  let head = '';
  const part = (disposition: string, extra = '') => `--${boundary}\r\nContent-Disposition: form-data; name=${disposition}\r\n${extra}\r\n`;
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) head += `${part(quoted(key))}${typeof value === 'object' && value !== null ? toJSONText(value, key, '', redact) : String(value)}\r\n`;
  }
  head += part(`"file"; filename=${quoted(name)}`, `Content-Type: ${(file instanceof Blob && file.type) || 'application/octet-stream'}\r\n`);
  const tail = `\r\n--${boundary}--\r\n`;
  const type = `multipart/form-data; boundary=${boundary}`;
  if (isBytes(file)) return { body: new Blob([head, file as BlobPart, tail]), type };

  // A stream: the head, then one chunk of the source per pull (only when the request asks for more), then the tail.
  const encoder = new TextEncoder();
  const reader = file instanceof ReadableStream ? file.getReader() : undefined;
  const iterator = reader ? undefined : (file as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]();
  let started = false;
  /** Set once the stream is over: sent to the end, cancelled by its reader, or ended with its attempt. */
  let finished = false;
  let control: ReadableStreamDefaultController<Uint8Array> | undefined;
  /** Lets the source go, once: nothing more is read from it. */
  // Called at most once: by the body's cancel, or by the ender, which checks `finished` first.
  const release = (reason: unknown): Promise<void> | undefined => {
    finished = true;
    const ignore = () => undefined;
    try {
      // A Node Readable is destroyed outright: its iterator's return() would wait for a pending read.
      const destroy = (file as { destroy?: unknown }).destroy;
      if (typeof destroy === 'function') destroy.call(file);
      // Stryker disable next-line OptionalChaining: an iterator without return() throws here, and the catch lets it go all the same.
      return Promise.resolve(reader ? reader.cancel(reason) : iterator!.return?.()).then(ignore, ignore);
      // Stryker disable next-line BlockStatement: the function returns undefined either way.
    } catch {
      // A source that fails to let go is let go all the same: the call still ends in its own error.
      return undefined;
    }
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        control = controller;
      },
      // Not called once the stream is closed, errored or cancelled.
      async pull(controller) {
        if (!started) {
          started = true;
          return controller.enqueue(encoder.encode(head));
        }
        let next: IteratorResult<unknown>;
        try {
          next = await (reader ? reader.read() : iterator!.next());
        } catch (error) {
          // The source failed, not the connection: the call ends in the source's error (see uploadSourceFailure).
          sourceFailures.set(body, { error });
          throw error;
        }
        // Ended while the source was being read: the stream is errored, nothing more is forwarded.
        // Stryker disable next-line ConditionalExpression: an enqueue would throw into an errored stream, which drops it.
        if (finished) return;
        if (!next.done) {
          const chunk = bytesOf(next.value, encoder);
          if (chunk) return controller.enqueue(chunk);
          const kind = typeof next.value;
          const error = new ValidationError(`the stream gave ${next.value === null ? 'null' : `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`}, not bytes or text`, 'file');
          sourceFailures.set(body, { error });
          throw error;
        }
        finished = true;
        controller.enqueue(encoder.encode(tail));
        controller.close();
      },
      cancel: release,
    },
    { highWaterMark: 0 },
  );
  streamEnders.set(body, (reasonOf) => {
    if (finished) return;
    const reason = reasonOf();
    // Errored, the stream fails every further read: whoever still pulls it (fetch draining the body
    // after an abort or a broken connection) stops at once, rather than reading the source on and on.
    // Stryker disable next-line OptionalChaining: `start` set it when the stream was built.
    control?.error(reason);
    void release(reason);
  });
  return { body, type };
}

/** A chunk of an upload's source as bytes: bytes, an ArrayBuffer or text; `undefined` for anything else. */
function bytesOf(value: unknown, encoder: TextEncoder): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') return encoder.encode(value);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return undefined;
}

/** What made an upload's source fail, by the multipart stream it fed: its read's error, or a chunk that was not bytes. */
const sourceFailures = new WeakMap<ReadableStream<Uint8Array>, { error: unknown }>();

/**
 * Why an upload's source failed mid-stream, if it did: the attempt then ends in that (a chunk that
 * was not bytes is a `ValidationError` on `file`), not in a connection error blaming the network.
 * @internal
 */
export function uploadSourceFailure(body: unknown): { error: unknown } | undefined {
  return body instanceof ReadableStream ? sourceFailures.get(body) : undefined;
}

/** How to end each multipart stream made by {@link toMultipart}. */
const streamEnders = new WeakMap<ReadableStream<Uint8Array>, (reason: () => unknown) => void>();

/**
 * Ends a multipart stream whose attempt is over, however it ended (an answer, a broken connection, a
 * timeout, an abort): unless it was sent to its end, the stream errors (fetch, which may go on
 * pulling it after it settled, reads no more) and its source is cancelled (a web stream), destroyed
 * (a Node `Readable`) or ended (`return()` of an async iterator). Any other body is left as it is.
 * `reason` gives what the stream errors with and a web stream source is cancelled with (asked
 * only when the stream is ended here). @internal
 */
export function endUpload(body: unknown, reason: () => unknown): void {
  if (body instanceof ReadableStream) streamEnders.get(body)?.(reason);
}
