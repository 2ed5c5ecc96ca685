// The transport at its edges, through a client with its own `fetch`: what a connection error says
// of its cause, the signal fetch is handed, an answer of exactly the size cap, and what a redirect's
// error says.
import { describe, expect, it } from 'vitest';
import { errorFromResponse, MAX_RESPONSE_BYTES } from '../../src/core/transport.js';
import { APIConnectionError, ForecastingClient, InvalidResponseError } from '../../src/index.js';
import { BASE, KEY } from './helpers.js';

const clientWith = (fetch: typeof globalThis.fetch) => new ForecastingClient({ apiKey: KEY, baseURL: BASE, fetch, maxRetries: 0, logLevel: 'off' });
const failingWith = (reason: unknown) => clientWith(() => Promise.reject(reason));
const caught = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);

describe('a connection error', () => {
  it.each([
    ['a short cause', new TypeError('fetch failed', { cause: new Error('bad port') }), 'Connection error (bad port) reaching api.test.'],
    ['a cause of exactly 100 characters', new TypeError('fetch failed', { cause: new Error('c'.repeat(100)) }), `Connection error (${'c'.repeat(100)}) reaching api.test.`],
    ['a cause of 101 characters', new TypeError('fetch failed', { cause: new Error('c'.repeat(101)) }), 'Connection error reaching api.test.'],
    ['a cause of two lines', new TypeError('fetch failed', { cause: new Error('one\ntwo') }), 'Connection error reaching api.test.'],
    ['a cause that is no Error', new TypeError('fetch failed', { cause: 'refused' }), 'Connection error reaching api.test.'],
    ['nothing at all', undefined, 'Connection error reaching api.test.'],
    ['null', null, 'Connection error reaching api.test.'],
    ['a code three causes deep', new TypeError('fetch failed', { cause: { cause: { code: 'ECONNRESET' } } }), 'Connection error (ECONNRESET) reaching api.test.'],
    ['a code on a function, which is no error object', Object.assign(() => undefined, { code: 'ECONNRESET' }), 'Connection error reaching api.test.'],
  ])('from %s says %j', async (_, reason, message) => {
    const err = await caught(failingWith(reason).get('/questions'));
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toBe(message);
  });
});

describe('the fetch a client is given', () => {
  it("is handed the attempt's signal, which aborts when the attempt times out", async () => {
    let seen: AbortSignal | undefined;
    const client = new ForecastingClient({
      apiKey: KEY,
      baseURL: BASE,
      maxRetries: 0,
      timeout: 20,
      fetch: (_input, init) => {
        seen = init?.signal ?? undefined;
        return new Promise(() => {});
      },
    });
    await caught(client.get('/questions'));
    expect(seen).toBeInstanceOf(AbortSignal);
    expect(seen!.aborted).toBe(true);
  });
});

describe('the size cap of an answer', () => {
  /** An answer of `size` bytes: a JSON record padded with spaces, sent in 1 MiB chunks. */
  const answerOf = (size: number) => {
    const head = new TextEncoder().encode('{"pad":"');
    const tail = new TextEncoder().encode('"}');
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    let left = size - head.length - tail.length;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(head);
      },
      pull(c) {
        if (left === 0) {
          c.enqueue(tail);
          c.close();
          return;
        }
        const n = Math.min(left, chunk.length);
        c.enqueue(chunk.subarray(0, n));
        left -= n;
      },
    });
    return () => Promise.resolve(new Response(body, { headers: { 'content-type': 'application/json' } }));
  };

  it('reads an answer of exactly the cap', async () => {
    const data = (await clientWith(answerOf(MAX_RESPONSE_BYTES)).get('/questions')) as { pad: string };
    expect(data.pad.length).toBe(MAX_RESPONSE_BYTES - 10);
  });

  it('refuses one byte more, naming the request', async () => {
    const err = await caught(clientWith(answerOf(MAX_RESPONSE_BYTES + 1)).get('/questions'));
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect((err as Error).message).toContain('larger than 32 MiB');
    expect((err as Error).message).toContain('(GET /questions)');
  });
});

describe("a redirect's error", () => {
  const redirect = (headers: Record<string, string>) => errorFromResponse({ response: new Response(null, { status: 302, headers }), text: '', request: 'GET /questions' });

  it('names the Location when there is one', () => {
    expect(redirect({ location: 'https://elsewhere.test/x' }).message).toContain(
      'the service answered with a redirect to https://elsewhere.test/x, which is not followed (the service never redirects)',
    );
  });

  it('says so without one', () => {
    expect(redirect({}).message).toContain('the service answered with a redirect, which is not followed (the service never redirects)');
  });
});
