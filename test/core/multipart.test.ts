// The multipart body on its own: the form's text fields, a stream source pulled one chunk per read
// and let go once, and what ending an attempt's upload does to the stream and its source.
import { describe, expect, it } from 'vitest';
import { endUpload, toMultipart, uploadSize } from '../../src/core/uploads.js';

/** A web stream source that counts its pulls and records its cancel. */
function source(chunks: Array<Uint8Array | string>) {
  const seen = { pulls: 0, cancelled: [] as unknown[] };
  const stream = new ReadableStream<Uint8Array | string>(
    {
      pull(c) {
        seen.pulls++;
        const next = chunks.shift();
        if (next === undefined) c.close();
        else c.enqueue(next);
      },
      cancel(reason) {
        seen.cancelled.push(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream: stream as ReadableStream<Uint8Array>, seen };
}

/** The body of a multipart made from a stream: a stream too. */
const streamOf = (params: Record<string, unknown>) => toMultipart(params).body as ReadableStream<Uint8Array>;
const text = async (body: Blob | ReadableStream<Uint8Array>) => new Response(body).text();
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('the size of an upload', () => {
  it('is known for bytes and Blobs, not for streams', () => {
    expect(uploadSize(new Blob(['abc']))).toBe(3);
    expect(uploadSize(new Uint8Array(4))).toBe(4);
    expect(uploadSize(new ArrayBuffer(5))).toBe(5);
    expect(uploadSize(source([]).stream)).toBeUndefined();
  });
});

describe("the form's other fields", () => {
  it('go as text, objects as JSON, and undefined ones not at all', async () => {
    const { body } = toMultipart({ file: new Uint8Array([1]), filename: 'a.bin', note: 'hi', count: 5, flag: false, meta: { a: 1 }, gone: undefined, empty: null });
    const form = await text(body);
    expect(form).toContain('name="note"\r\n\r\nhi\r\n');
    expect(form).toContain('name="count"\r\n\r\n5\r\n');
    expect(form).toContain('name="flag"\r\n\r\nfalse\r\n');
    expect(form).toContain('name="meta"\r\n\r\n{"a":1}\r\n');
    expect(form).toContain('name="empty"\r\n\r\nnull\r\n');
    expect(form).not.toContain('name="gone"');
  });
});

describe('a stream source', () => {
  it('is read one chunk per read of the body, text chunks encoded, then the tail', async () => {
    const { stream, seen } = source(['one', new TextEncoder().encode('two')]);
    const body = streamOf({ file: stream, filename: 'a.txt' });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const head = decoder.decode((await reader.read()).value);
    expect(head).toContain('filename="a.txt"');
    await tick();
    expect(seen.pulls).toBe(0);
    expect(decoder.decode((await reader.read()).value)).toBe('one');
    expect(decoder.decode((await reader.read()).value)).toBe('two');
    expect(decoder.decode((await reader.read()).value)).toMatch(/^\r\n--.*--\r\n$/);
    expect((await reader.read()).done).toBe(true);
  });

  it('is let go once when the body is cancelled, and forwards nothing read after', async () => {
    const { stream, seen } = source(['one', 'two']);
    const body = streamOf({ file: stream, filename: 'a.txt' });
    const reader = body.getReader();
    await reader.read();
    await reader.cancel('enough');
    await reader.cancel('again');
    expect(seen.cancelled).toEqual(['enough']);
  });

  it('ended with its attempt errors the body with the reason and cancels the source with it, once', async () => {
    const { stream, seen } = source(['one', 'two']);
    const body = streamOf({ file: stream, filename: 'a.txt' });
    const reader = body.getReader();
    await reader.read();
    const reason = new Error('timed out');
    let asked = 0;
    endUpload(body, () => (asked++, reason));
    endUpload(body, () => (asked++, reason));
    await expect(reader.read()).rejects.toBe(reason);
    await tick();
    expect(seen.cancelled).toEqual([reason]);
    expect(asked).toBe(1);
  });

  it('sent to its end is left alone by the end of its attempt', async () => {
    const { stream, seen } = source(['one']);
    const body = streamOf({ file: stream, filename: 'a.txt' });
    await text(body);
    let asked = 0;
    endUpload(body, () => asked++);
    expect([asked, seen.cancelled]).toEqual([0, []]);
  });

  it('forwards nothing the source answers after the stream was ended mid-read', async () => {
    let answer: ((v: IteratorResult<Uint8Array>) => void) | undefined;
    const iterable = {
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<IteratorResult<Uint8Array>>((r) => (answer = r)),
      }),
    };
    const body = streamOf({ file: iterable, filename: 'a.bin' });
    const reader = body.getReader();
    await reader.read();
    const pending = reader.read();
    await tick();
    endUpload(body, () => new Error('broken'));
    answer!({ done: false, value: new Uint8Array([7]) });
    await expect(pending).rejects.toThrow('broken');
  });

  it('is let go even when it has no return(), or its destroy() throws', async () => {
    const plain = { [Symbol.asyncIterator]: () => ({ next: async () => ({ done: false as const, value: new Uint8Array([1]) }) }) };
    const first = streamOf({ file: plain, filename: 'a.bin' }).getReader();
    await first.read();
    await expect(first.cancel('stop')).resolves.toBeUndefined();

    const breaking = Object.assign(source(['x']).stream, {
      destroy() {
        throw new Error('destroy broke');
      },
    });
    const second = streamOf({ file: breaking, filename: 'a.bin' });
    await expect(second.cancel('stop')).resolves.toBeUndefined();
  });

  it('calls a Node-style destroy() to let the source go', async () => {
    let destroyed = 0;
    const nodeLike = Object.assign(source(['x']).stream, { destroy: () => void destroyed++ });
    await streamOf({ file: nodeLike, filename: 'a.bin' }).cancel('stop');
    expect(destroyed).toBe(1);
  });
});

describe('ending an upload', () => {
  it('leaves any body but a multipart stream alone', () => {
    let asked = 0;
    for (const body of [new ReadableStream(), new Blob(['x']), '{"a":1}', undefined]) endUpload(body, () => asked++);
    expect(asked).toBe(0);
  });
});
