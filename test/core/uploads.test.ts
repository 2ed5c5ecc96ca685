// Uploads over real HTTP on 127.0.0.1: the multipart body the SDK writes, and a stream sent as it is
// read (its first chunks reach the server before its last is even produced).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync, createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defineOperations, type ResponseRef } from '../../src/core/operation.js';
import { APIConnectionError, APIError, ForecastingClient, OverloadedError, ValidationError, toFile } from '../../src/index.js';
import { MAX_MULTIPART_BODY_BYTES, startMockServer } from '../../src/testing/index.js';
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

/** The kinds of stream an upload's `file` may be, each pulled as it is sent and released its own way. */
const STREAMS = ['async generator', 'Node Readable', 'web ReadableStream'] as const;
type StreamKind = (typeof STREAMS)[number];

/**
 * A source without end in practice, of 64 KiB chunks: it counts the bytes pulled in all and once the
 * call has settled, and notes its release (`return()`, `destroy()` or `cancel(reason)`). It gives up
 * after `CAP` chunks past the settling, so that a regression fails a test instead of spinning forever
 * (that end is not a release).
 */
const CHUNK = 64 * 1024;
const CAP = 2000;
function endlessSource(kind: StreamKind) {
  const state = { settled: false, pulled: 0, after: 0, released: false, cancelledWith: undefined as unknown };
  const chunk = (): Uint8Array | null => {
    if (state.settled && state.after >= CAP * CHUNK) return null;
    state.pulled += CHUNK;
    if (state.settled) state.after += CHUNK;
    return new Uint8Array(CHUNK);
  };
  const released = () => void (state.released ||= !(state.settled && state.after >= CAP * CHUNK));
  let source: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>;
  if (kind === 'async generator') {
    source = (async function* () {
      try {
        for (let c = chunk(); c; c = chunk()) yield c;
      } finally {
        released();
      }
    })();
  } else if (kind === 'Node Readable') {
    source = new Readable({
      read() {
        this.push(chunk());
      },
      destroy(err, callback) {
        released();
        callback(err);
      },
    });
  } else {
    source = new ReadableStream<Uint8Array>({
      pull(controller) {
        const c = chunk();
        if (c) controller.enqueue(c);
        else controller.close();
      },
      cancel(reason) {
        state.cancelledWith = reason;
        released();
      },
    });
  }
  return { state, source };
}

/** Marks the source's call settled, whatever it settled with, and gives back the error (or the value). */
const settle = (state: { settled: boolean }) => (e: unknown) => {
  state.settled = true;
  return e;
};
/** Lets anything still pulling the body run on for a while (timers fire only if the loop is free). */
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A server on 127.0.0.1 for one test; `close` ends its open connections too. */
async function localServer(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ baseURL: string; close: () => Promise<void> }> {
  const local = createServer(handle);
  await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
  const { port } = local.address() as { port: number };
  return {
    baseURL: `http://127.0.0.1:${port}/api/v1/external`,
    close: () => {
      local.closeAllConnections();
      return new Promise<void>((resolve) => local.close(() => resolve()));
    },
  };
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

  it.each(STREAMS)('releases %s source when the stream is cancelled', async (kind) => {
    const { state, source } = endlessSource(kind);
    const { body } = toMultipart({ file: source, filename: 'x' });
    const reader = (body as ReadableStream<Uint8Array>).getReader();
    await reader.read(); // the form's head
    await reader.read(); // the source's first chunk: a generator runs its `finally` only once started
    await reader.cancel('stop');
    expect(state.released).toBe(true);
    if (kind === 'web ReadableStream') expect(state.cancelledWith).toBe('stop');
  });
});

describe('an upload that times out or is aborted stops reading its source', () => {
  /** A server that takes the connection and never reads the body, so the upload never finishes. */
  const stalledServer = () => localServer((req) => req.pause());

  it('destroys a Node Readable source on a timeout, reading at most a few chunks after the rejection', { timeout: 15_000 }, async () => {
    const { baseURL: url, close } = await stalledServer();
    try {
      const { state, source } = endlessSource('Node Readable');
      const c = new ForecastingClient({ apiKey: 'pre_test', baseURL: url, logLevel: 'off', maxRetries: 0, timeout: 300 });
      const err = await send({ file: source, filename: 'a' }, c).catch(settle(state));
      expect((err as Error).name).toBe('APITimeoutError');
      await pause(200);
      expect(state.after).toBeLessThan(16 * CHUNK);
      expect(state.released).toBe(true);
      expect((source as Readable).destroyed).toBe(true);
    } finally {
      await close();
    }
  });

  it('cancels a web ReadableStream source with the signal\'s reason when the signal aborts', { timeout: 15_000 }, async () => {
    const { baseURL: url, close } = await stalledServer();
    try {
      const { state, source } = endlessSource('web ReadableStream');
      const abort = new AbortController();
      const reason = new Error('stop the upload');
      setTimeout(() => abort.abort(reason), 300);
      const c = new ForecastingClient({ apiKey: 'pre_test', baseURL: url, logLevel: 'off', maxRetries: 0, timeout: 0 });
      const err = await c._call(upload, ['q1'], { file: source, filename: 'a' } as never, { signal: abort.signal }).catch(settle(state));
      expect(err).toBe(reason);
      await pause(200);
      expect(state.after).toBeLessThan(16 * CHUNK);
      expect(state.cancelledWith).toBe(reason);
    } finally {
      await close();
    }
  });

  it.each(STREAMS)('releases %s source when the signal aborts while the call waits for a slot of the request budget', { timeout: 15_000 }, async (kind) => {
    const { baseURL: url, close } = await stalledServer();
    try {
      const { state, source } = endlessSource(kind);
      const c = new ForecastingClient({ apiKey: 'pre_test', baseURL: url, logLevel: 'off', maxRetries: 0, rateLimit: { requestsPerMinute: 1 } });
      // The one slot of this minute goes to a request that never ends; the upload then waits for the next.
      const first = new AbortController();
      void c.questions.retrieve('q0', { signal: first.signal }).catch(() => undefined);
      const abort = new AbortController();
      const reason = new Error('stop waiting');
      const call = c._call(upload, ['q1'], { file: source, filename: 'a' } as never, { signal: abort.signal }).catch(settle(state));
      await pause(100);
      abort.abort(reason);
      expect(await call).toBe(reason);
      first.abort();
      await pause(50);
      // A generator never started has no body to run on return(): ended, it yields nothing more.
      if (kind === 'async generator') expect(await (source as AsyncGenerator<Uint8Array>).next()).toEqual({ done: true, value: undefined });
      else expect(state.released).toBe(true);
      expect(state.pulled).toBeLessThan(16 * CHUNK);
    } finally {
      await close();
    }
  });

  it('ends an async iterator source (its return()) on a timeout', { timeout: 15_000 }, async () => {
    const { baseURL: url, close } = await stalledServer();
    try {
      const { state, source } = endlessSource('async generator');
      const c = new ForecastingClient({ apiKey: 'pre_test', baseURL: url, logLevel: 'off', maxRetries: 0, timeout: 300 });
      const err = await send({ file: source, filename: 'a' }, c).catch(settle(state));
      expect((err as Error).name).toBe('APITimeoutError');
      await pause(200);
      expect(state.after).toBeLessThan(16 * CHUNK);
      expect(state.released).toBe(true);
    } finally {
      await close();
    }
  });
});

describe('an upload whose connection breaks stops reading its source', () => {
  /** Where each server breaks the connection: after this much of the body has arrived. */
  const BREAK_AT = MiB;
  /**
   * The ways a server breaks an upload once `BREAK_AT` bytes have arrived: a TCP reset; the socket
   * destroyed (the client's next writes fail with EPIPE or ECONNRESET); an early 413 answer, the rest
   * unread, then the connection closed (what the mock does with a body over its cap).
   */
  const BREAKS = {
    reset: (req: IncomingMessage) => req.socket.resetAndDestroy(),
    'destroyed socket': (req: IncomingMessage) => req.socket.destroy(),
    'early 413, then close': (req: IncomingMessage, res: ServerResponse) => {
      req.pause();
      const error = { type: 'error', error: { type: 'request_too_large', message: 'A multipart body may be at most 1 MiB.' } };
      res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify(error));
    },
  };
  type Break = keyof typeof BREAKS;

  /** A server that breaks every upload's connection the given way, noting when it did. */
  async function breakingServer(how: Break) {
    const broke = { at: 0 };
    const server = await localServer((req, res) => {
      let received = 0;
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received < BREAK_AT || broke.at) return;
        broke.at = Date.now();
        BREAKS[how](req, res);
      });
    });
    return { ...server, broke };
  }

  /** Sends `file` to `baseURL` once (no retries) and settles `state` with the outcome. */
  const sendOnce = (baseURL: string, file: unknown, state: { settled: boolean }, apiKey = 'pre_test') =>
    send({ file, filename: 'endless.bin' }, new ForecastingClient({ apiKey, baseURL, logLevel: 'off', maxRetries: 0, timeout: 30_000 })).catch(settle(state));

  /** What holds however the connection broke: the source let go, little read past the break, no more read after the call settled. */
  async function expectReleased(state: ReturnType<typeof endlessSource>['state'], brokeAt: number, limit: number) {
    // The call settled promptly after the break (a hang would end in the test's timeout instead).
    expect(Date.now() - brokeAt).toBeLessThan(10_000);
    expect(state.released).toBe(true);
    await pause(200);
    // What fetch had in flight and the sockets' buffers, never the tens of MiB a pull loop reads in that time.
    expect(state.pulled).toBeLessThan(limit + 16 * MiB);
    expect(state.after).toBeLessThan(16 * CHUNK);
  }

  describe.each(STREAMS)('%s', (kind) => {
    it.each(['reset', 'destroyed socket'] as const)('%s: rejects with APIConnectionError, releases the source, reads no further', { timeout: 30_000 }, async (how) => {
      const { baseURL: url, close, broke } = await breakingServer(how);
      try {
        const { state, source } = endlessSource(kind);
        const err = await sendOnce(url, source, state);
        expect(err).toBeInstanceOf(APIConnectionError);
        expect((err as Error).message).toMatch(/^Connection error \((ECONNRESET|EPIPE)\) reaching 127\.0\.0\.1:\d+\.$/);
        await expectReleased(state, broke.at, BREAK_AT);
        // A web stream source is cancelled with the very error the call rejects with.
        if (kind === 'web ReadableStream') expect(state.cancelledWith).toBe(err);
      } finally {
        await close();
      }
    });

    it('early 413, then close: rejects with the 413 (or APIConnectionError if the close wins), releases the source', { timeout: 30_000 }, async () => {
      const { baseURL: url, close, broke } = await breakingServer('early 413, then close');
      try {
        const { state, source } = endlessSource(kind);
        const err = await sendOnce(url, source, state);
        expectAnswerOrBreak(err);
        await expectReleased(state, broke.at, BREAK_AT);
        // A web stream source is cancelled with the error of the answer (or of the break).
        if (kind === 'web ReadableStream') expect(state.cancelledWith).toMatchObject({ name: (err as Error).name, status: (err as APIError).status });
      } finally {
        await close();
      }
    });

    it('against startMockServer(): a body over the upload cap is refused and the source released', { timeout: 30_000 }, async () => {
      const mock = await startMockServer();
      try {
        const { state, source } = endlessSource(kind);
        const started = Date.now();
        const err = await sendOnce(mock.baseURL, source, state, mock.apiKey);
        expectAnswerOrBreak(err);
        await expectReleased(state, started, MAX_MULTIPART_BODY_BYTES);
      } finally {
        await mock.close();
      }
    });
  });

  /**
   * The 413 when its answer arrived; otherwise (Node's fetch fails a request whose body it can no
   * longer write, even with the answer on its way) the connection error. Never a bare TypeError.
   */
  function expectAnswerOrBreak(err: unknown) {
    if (err instanceof APIError) expect([err.status, err.type]).toEqual([413, 'request_too_large']);
    else expect(err).toBeInstanceOf(APIConnectionError);
  }

  it('ends in APIConnectionError for a Blob cut off by a reset (its bytes are at hand: nothing to release)', { timeout: 30_000 }, async () => {
    const { baseURL: url, close } = await breakingServer('reset');
    try {
      const err = await sendOnce(url, new Blob([new Uint8Array(8 * MiB)]), { settled: false });
      expect(err).toBeInstanceOf(APIConnectionError);
    } finally {
      await close();
    }
  });

  it('still ends in APIConnectionError when the source fails to let go (its return() throws)', { timeout: 30_000 }, async () => {
    const { baseURL: url, close } = await breakingServer('reset');
    try {
      let returned = false;
      let pulled = 0;
      // Ends after CAP chunks, so that a regression fails rather than spins.
      const source = {
        [Symbol.asyncIterator]: () => ({
          next: async () => (++pulled > CAP ? { done: true, value: undefined } : { done: false, value: new Uint8Array(CHUNK) }),
          return: () => {
            returned = true;
            throw new TypeError('cannot stop');
          },
        }),
      };
      const err = await sendOnce(url, source, { settled: false });
      expect(err).toBeInstanceOf(APIConnectionError);
      expect(returned).toBe(true);
      await pause(200);
      expect(pulled * CHUNK).toBeLessThan(BREAK_AT + 16 * MiB);
    } finally {
      await close();
    }
  });
});
