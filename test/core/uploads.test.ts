// Uploads over real HTTP on 127.0.0.1: the multipart body the SDK writes, and a stream sent as it is
// read (its first chunks reach the server before its last is even produced).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync, createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defineOperations, type ResponseRef } from '../../src/core/operation.js';
import { APIConnectionError, ForecastingClient, OverloadedError, ValidationError, toFile } from '../../src/index.js';
import { toMultipart } from '../../src/core/uploads.js';

const MiB = 1024 * 1024;
const upload = defineOperations('test', {
  upload: { method: 'POST', path: '/questions/{question_id}/files', scope: 'questions:write', response: 'T' as ResponseRef<{ id: string }>, multipart: true },
}).upload;

/** What the server saw of one request. */
interface Seen {
  headers: IncomingMessage['headers'];
  form: FormData;
  bytes: number;
}

let server: Server;
let baseURL = '';
let seen: Seen[] = [];
/** Bytes of the request being received, counted as they arrive. */
let receiving = 0;
/** Status to answer with (201 unless a test says otherwise). */
let status = 201;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    receiving = 0;
    req.on('data', (chunk: Buffer) => {
      receiving += chunk.length;
      chunks.push(chunk);
    });
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const form = await new Response(body, { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
      seen.push({ headers: req.headers, form, bytes: body.length });
      const answer = status === 201 ? { id: 'f1', status: 'processing' } : { type: 'error', error: { type: 'overloaded_error', message: 'busy' } };
      res.writeHead(status, status === 302 ? { location: 'http://example.invalid/elsewhere' } : { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  baseURL = `http://127.0.0.1:${port}/api/v1/external`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  status = 201;
});

const client = () => new ForecastingClient({ apiKey: 'pre_test', baseURL, logLevel: 'off', retryBackoff: { initialDelay: 0, maxDelay: 0 } });
const send = (params: Record<string, unknown>, c = client()) => c._call(upload, ['q1'], params as never);

/** `n` chunks of `size` bytes, each made only when asked for; `before(i)` runs before chunk `i` is made. */
async function* lazyChunks(n: number, size: number, before: (i: number) => Promise<void> = async () => {}): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < n; i++) {
    await before(i);
    yield new Uint8Array(size).fill(65 + (i % 26));
  }
}

/** Resolves once `test()` holds, or rejects after `ms`. */
async function until(test: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('uploads as multipart/form-data', () => {
  it('streams a 9 MiB stream: the server has the first megabytes before the last chunk is produced', async () => {
    let receivedBeforeLast = -1;
    const source = lazyChunks(9, MiB, async (i) => {
      if (i !== 8) return;
      // Were the stream collected before sending, nothing would arrive until every chunk was made.
      await until(() => receiving >= 4 * MiB, 15_000, '4 MiB at the server before the last chunk');
      receivedBeforeLast = receiving;
    });
    await send({ file: source, filename: 'big.bin', treatment: 'consider' });
    expect(receivedBeforeLast).toBeGreaterThanOrEqual(4 * MiB);
    expect(receivedBeforeLast).toBeLessThan(9 * MiB);
    const file = seen[0]!.form.get('file') as File;
    expect(file.name).toBe('big.bin');
    expect(file.size).toBe(9 * MiB);
    expect(seen[0]!.form.get('treatment')).toBe('consider');
    // Sent as it was read: no length known up front.
    expect(seen[0]!.headers['transfer-encoding']).toBe('chunked');
  }, 60_000);

  it.each([
    ['a web ReadableStream', () => new Blob(['hello']).stream()],
    ['a Node Readable', () => Readable.from([Buffer.from('hel'), Buffer.from('lo')])],
    ['an async iterable of text', () => Readable.from(['hel', 'lo'], { objectMode: true })],
  ])('sends %s with a filename', async (_, make) => {
    await send({ file: make(), filename: 'notes.txt' });
    const file = seen[0]!.form.get('file') as File;
    expect([file.name, await file.text()]).toEqual(['notes.txt', 'hello']);
  });

  it('names an fs.ReadStream after its path, and sends a file from disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'upload-'));
    try {
      writeFileSync(join(dir, 'survey.csv'), 'a,b\n1,2\n');
      await send({ file: createReadStream(join(dir, 'survey.csv')), artifactType: 'dataset' });
      const file = seen[0]!.form.get('file') as File;
      expect([file.name, await file.text(), seen[0]!.form.get('artifactType')]).toEqual(['survey.csv', 'a,b\n1,2\n', 'dataset']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sends bytes, Blobs and Files with a known length, keeping the type and an unusual name', async () => {
    await send({ file: new File(['{"a":1}'], 'data "v2"\r\n.json', { type: 'application/json' }) });
    await send({ file: new Uint8Array([104, 105]), filename: 'résumé.txt' });
    await send({ file: await toFile(Readable.from([Buffer.from('x')]), 'wrapped.txt', { type: 'text/plain' }) });
    const [json, bytes, wrapped] = seen.map((s) => s.form.get('file') as File);
    // Quotes and line breaks are percent-encoded on the wire, as browsers do, and decoded back by a form parser.
    expect([json!.name, json!.type, await json!.text()]).toEqual(['data "v2"\r\n.json', 'application/json', '{"a":1}']);
    expect([bytes!.name, bytes!.type, await bytes!.text()]).toEqual(['résumé.txt', 'application/octet-stream', 'hi']);
    expect([wrapped!.name, wrapped!.type]).toEqual(['wrapped.txt', 'text/plain']);
    expect(seen.every((s) => s.headers['content-length'] === String(s.bytes))).toBe(true);
  });

  it('retries a Blob after a 503, but never a stream, whose bytes are gone once sent', async () => {
    status = 503;
    await expect(send({ file: new Blob(['x']), filename: 'a.txt' })).rejects.toBeInstanceOf(OverloadedError);
    expect(seen).toHaveLength(3);
    seen = [];
    await expect(send({ file: lazyChunks(2, 10), filename: 'a.txt' })).rejects.toBeInstanceOf(OverloadedError);
    expect(seen).toHaveLength(1);
  });

  it('never follows a redirect with the file (the service never redirects)', async () => {
    status = 302;
    const err = await send({ file: new Blob(['x']), filename: 'a.txt' }, new ForecastingClient({ apiKey: 'pre_test', baseURL, logLevel: 'off', maxRetries: 0 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(String((err as Error).cause && ((err as Error).cause as Error).cause)).toMatch(/redirect/);
    expect(seen).toHaveLength(1);
  });

  it('refuses a file that is not an upload, or bytes without a name, sending nothing', async () => {
    for (const [params, field] of [
      [{ file: 'just text' }, 'file'],
      [{ file: Buffer.from('x') }, 'filename'],
      [{ file: lazyChunks(1, 1) }, 'filename'],
    ] as const) {
      const err = await send(params).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).field).toBe(field);
    }
    expect(seen).toHaveLength(0);
  });

  it('refuses an upload field that cannot be JSON with a ValidationError naming it, sending nothing', async () => {
    const err = await send({ file: new Uint8Array(1), filename: 'x', meta: { n: 1n } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ field: 'meta' });
    expect(seen).toHaveLength(0);
  });

  it('cancels the source when the stream is cancelled', async () => {
    let cancelled = false;
    const source = new ReadableStream<Uint8Array>({ pull: (c) => c.enqueue(new Uint8Array(1)), cancel: () => void (cancelled = true) });
    const { body } = toMultipart({ file: source, filename: 'x' });
    const reader = (body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel('stop');
    expect(cancelled).toBe(true);
  });
});

describe('an upload that times out or is aborted stops reading its source', () => {
  /** A server that takes the connection and never reads the body, so the upload never finishes. */
  async function stalledServer(): Promise<{ baseURL: string; close: () => Promise<void> }> {
    const stalled = createServer((req) => req.pause());
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    const { port } = stalled.address() as { port: number };
    return {
      baseURL: `http://127.0.0.1:${port}/api/v1/external`,
      close: () => {
        stalled.closeAllConnections();
        return new Promise<void>((resolve) => stalled.close(() => resolve()));
      },
    };
  }

  /**
   * A source without end in practice: it counts the chunks read once the call has settled, and gives
   * up after `CAP` of them, so that a regression fails this test instead of spinning the suite forever.
   */
  const CAP = 2000;
  function endlessSource() {
    const state = { settled: false, after: 0, ended: false };
    function* chunks(): Generator<Uint8Array> {
      try {
        for (;;) {
          if (state.settled && ++state.after >= CAP) return;
          yield new Uint8Array(64 * 1024);
        }
      } finally {
        state.ended = true;
      }
    }
    return { state, chunks };
  }
  const settle = (state: { settled: boolean }) => (e: unknown) => {
    state.settled = true;
    return e;
  };
  /** Lets anything still pulling the body run on for a while (timers fire only if the loop is free). */
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('destroys a Node Readable source on a timeout, reading at most a few chunks after the rejection', { timeout: 15_000 }, async () => {
    const { baseURL: url, close } = await stalledServer();
    try {
      const { state, chunks } = endlessSource();
      const source = Readable.from(chunks());
      const c = new ForecastingClient({ apiKey: 'pre_test', baseURL: url, logLevel: 'off', maxRetries: 0, timeout: 300 });
      const err = await send({ file: source, filename: 'a' }, c).catch(settle(state));
      expect((err as Error).name).toBe('APITimeoutError');
      await pause(200);
      expect(state.after).toBeLessThan(16);
      expect(source.destroyed).toBe(true);
    } finally {
      await close();
    }
  });

  it('cancels a web ReadableStream source with the signal\'s reason when the signal aborts', { timeout: 15_000 }, async () => {
    const { baseURL: url, close } = await stalledServer();
    try {
      const { state, chunks } = endlessSource();
      const it = chunks();
      let cancelledWith: unknown;
      const source = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = it.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        cancel(reason) {
          cancelledWith = reason;
        },
      });
      const abort = new AbortController();
      const reason = new Error('stop the upload');
      setTimeout(() => abort.abort(reason), 300);
      const c = new ForecastingClient({ apiKey: 'pre_test', baseURL: url, logLevel: 'off', maxRetries: 0, timeout: 0 });
      const err = await c._call(upload, ['q1'], { file: source, filename: 'a' } as never, { signal: abort.signal }).catch(settle(state));
      expect(err).toBe(reason);
      await pause(200);
      expect(state.after).toBeLessThan(16);
      expect(cancelledWith).toBe(reason);
    } finally {
      await close();
    }
  });

  it('ends an async iterator source (its return()) on a timeout', { timeout: 15_000 }, async () => {
    const { baseURL: url, close } = await stalledServer();
    try {
      const { state, chunks } = endlessSource();
      async function* source() {
        yield* chunks();
      }
      const c = new ForecastingClient({ apiKey: 'pre_test', baseURL: url, logLevel: 'off', maxRetries: 0, timeout: 300 });
      const err = await send({ file: source(), filename: 'a' }, c).catch(settle(state));
      expect((err as Error).name).toBe('APITimeoutError');
      await pause(200);
      expect(state.after).toBeLessThan(16);
      expect(state.ended).toBe(true);
    } finally {
      await close();
    }
  });
});
