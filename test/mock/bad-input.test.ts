// The mock holds up to bad input as a server should: bodies over a cap, deep nesting. Through
// `service.handle` (the msw and direct path); test/mock/server-input.test.ts covers real HTTP.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockService, MAX_JSON_BODY_BYTES, MAX_JSON_DEPTH, MAX_JSON_UPLOAD_BODY_BYTES, MAX_LOGGED_BODY_BYTES, MAX_MULTIPART_BODY_BYTES } from '../../src/testing/index.js';
import { BASE, call, expectError, read } from './_helpers.js';

const MiB = 1024 * 1024;

/** A body stream of `total` bytes in 64 KiB chunks, counting what was pulled from it. */
function counted(total: number, fill = 0x20) {
  const chunk = new Uint8Array(64 * 1024).fill(fill);
  const state = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= total) return controller.close();
      state.pulled += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return { stream, state };
}

function post(service: ReturnType<typeof createMockService>, path: string, body: BodyInit, headers: Record<string, string> = {}): Promise<Response> {
  return service.handle(
    new Request(`${BASE}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json', ...headers },
      body,
      duplex: 'half',
    } as RequestInit),
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('body size caps', () => {
  it('names its caps: 1 MiB of JSON, one 10 MiB file plus form overhead for multipart or base64 JSON', () => {
    expect(MAX_JSON_BODY_BYTES).toBe(MiB);
    expect(MAX_MULTIPART_BODY_BYTES).toBeGreaterThan(10 * MiB);
    expect(MAX_MULTIPART_BODY_BYTES).toBeLessThanOrEqual(11 * MiB);
    // A preset file as JSON: 10 MiB in base64 is 13.33 MiB.
    expect(MAX_JSON_UPLOAD_BODY_BYTES).toBeGreaterThan((10 * MiB * 4) / 3);
    expect(MAX_JSON_UPLOAD_BODY_BYTES).toBeLessThanOrEqual(13.5 * MiB);
  });

  it('answers 413 in the error envelope to a JSON body over 1 MiB, and stores nothing', async () => {
    const service = createMockService();
    const body = JSON.stringify({ type: 'binary', title: 'Will it fit?', description: 'x'.repeat(2 * MiB) });
    const res = await read(await post(service, '/questions', body));
    expectError(res, 413, 'request_too_large', /1 MiB/);
    expect(service.store.questions.size).toBe(0);
    expect(service.requests.last()).toMatchObject({ operation: 'questions.create', status: 413, body: expect.stringMatching(/^\[body over 1048576 bytes: not read\]$/) });
  });

  it('refuses on Content-Length alone, reading nothing', async () => {
    const service = createMockService();
    const { stream, state } = counted(5 * MiB);
    const res = await read(await post(service, '/questions', stream, { 'content-length': String(5 * MiB) }));
    expectError(res, 413, 'request_too_large');
    expect(state.pulled).toBe(0);
  });

  it('stops reading at the cap when no length was declared', async () => {
    const service = createMockService();
    const { stream, state } = counted(8 * MiB);
    const res = await read(await post(service, '/questions', stream));
    expectError(res, 413, 'request_too_large');
    expect(state.pulled).toBeLessThanOrEqual(MAX_JSON_BODY_BYTES + 3 * 64 * 1024);
  });

  it('keeps the JSON cap on a route that takes no upload, whatever content type is claimed', async () => {
    const service = createMockService();
    const { stream, state } = counted(3 * MiB);
    const res = await read(await post(service, '/questions', stream, { 'content-type': 'multipart/form-data; boundary=x' }));
    expectError(res, 413, 'request_too_large', /1 MiB/);
    expect(state.pulled).toBeLessThanOrEqual(MAX_JSON_BODY_BYTES + 3 * 64 * 1024);
  });

  it('gives uploads their own cap: one 10 MiB file passes, more answers 413', async () => {
    const service = createMockService();
    const multipart = { 'content-type': 'multipart/form-data; boundary=x' };
    const under = await post(service, '/questions/q1/files', counted(10 * MiB).stream, multipart);
    expect(under.status).not.toBe(413);
    const over = counted(12 * MiB);
    expectError(await read(await post(service, '/questions/q1/files', over.stream, multipart)), 413, 'request_too_large', /multipart/);
    expect(over.state.pulled).toBeLessThanOrEqual(MAX_MULTIPART_BODY_BYTES + 3 * 64 * 1024);
  });

  // A form where the spec takes JSON was read as no body (`{}`): `PATCH /webhooks/{id}` of junk answered 200.
  it('refuses a multipart form on a route that takes JSON, with 400', async () => {
    const service = createMockService();
    const form = { 'content-type': 'multipart/form-data; boundary=x' };
    const res = await read(await post(service, '/questions', 'junk', form));
    expectError(res, 400, 'invalid_request_error', /must be JSON \(Content-Type: application\/json\), not a multipart form/);
    expect((await read(await post(service, '/questions/q1/files', 'junk', form))).status).not.toBe(200);
  });

  it('accepts a body just under the cap', async () => {
    const service = createMockService();
    const body = JSON.stringify({ type: 'binary', title: 'Will it fit?', description: 'x'.repeat(MAX_JSON_BODY_BYTES - 200) });
    expect((await post(service, '/questions', body)).status).toBe(201);
  });
});

describe('the request log', () => {
  it('clips a large body to a short preview with its size', async () => {
    const service = createMockService();
    const body = JSON.stringify({ type: 'binary', title: 'Will it log?', description: 'y'.repeat(500_000) });
    expect((await post(service, '/questions', body)).status).toBe(201);
    const logged = service.requests.last()!.body;
    expect(typeof logged).toBe('string');
    expect(logged).toMatch(new RegExp(`^\\[JSON body of ${body.length} bytes, clipped\\] \\{"type":"binary"`));
    expect((logged as string).length).toBeLessThan(1200);
  });

  it('keeps a body up to MAX_LOGGED_BODY_BYTES as parsed JSON', async () => {
    const service = createMockService();
    const question = { type: 'binary', title: 'Will it log?', description: 'z'.repeat(MAX_LOGGED_BODY_BYTES - 100) };
    expect((await post(service, '/questions', JSON.stringify(question))).status).toBe(201);
    expect(service.requests.last()!.body).toEqual(question);
  });

  it('clips text that is not JSON too', async () => {
    const service = createMockService();
    const res = await read(await post(service, '/questions', `{${'w'.repeat(200_000)}`));
    expectError(res, 400, 'invalid_request_error', /not valid JSON/);
    expect((service.requests.last()!.body as string).length).toBeLessThan(1200);
  });
});

describe('a body with many problems', () => {
  // 80,000 of them took 20 s (a search per problem for its like), the answer listed each (4 MB for a
  // 160 KB body), and 200,000 overflowed zod's stack: a 500.
  const forecast = (off: number) => JSON.stringify({ questionId: 'q_1', connections: { off: Array(off).fill(1) } });

  it('answers 400 listing the first ten and counting the rest', async () => {
    const error = expectError(await read(await post(createMockService(), '/forecasts', forecast(20_000))), 400, 'invalid_request_error', /^connections\.off\.0: must be a string, got number; .*; and 19990 more$/);
    expect(error.message.split('; ')).toHaveLength(11);
  });

  it('answers 400 naming the list when there are too many to check one by one', async () => {
    const res = await read(await post(createMockService(), '/forecasts', forecast(300_000)));
    expectError(res, 400, 'invalid_request_error', 'connections.off: is too large or too deeply nested to check');
  });
});

describe('deep nesting', () => {
  const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

  it('answers 400 naming the nesting limit, for keyed and plain operations alike', async () => {
    const service = createMockService();
    for (const [path, body] of [
      ['/forecasts', nested(20_000)],
      ['/questions', `{"type":"binary","title":"Deep?","description":${nested(20_000)}}`],
      ['/questions', `${'['.repeat(200_000)}${']'.repeat(200_000)}`],
    ] as const) {
      const res = await read(await post(service, path, body, { 'idempotency-key': `k-${path}` }));
      expectError(res, 400, 'invalid_request_error', new RegExp(`nested deeper than ${MAX_JSON_DEPTH} levels`));
    }
    expect(service.requests.last()!.body).toMatch(/nested deeper than/);
  });

  it('lets MAX_JSON_DEPTH levels through to validation, and refuses one more', async () => {
    const service = createMockService();
    const at = (depth: number) => `{"type":"binary","title":"Deep?","description":${nested(depth - 1)}}`;
    expectError(await read(await post(service, '/questions', at(MAX_JSON_DEPTH))), 400, 'invalid_request_error', /description: must be a string/);
    expectError(await read(await post(service, '/questions', at(MAX_JSON_DEPTH + 1))), 400, 'invalid_request_error', /nested deeper/);
  });

  it('answers 400 when the parser itself runs out of stack', async () => {
    const service = createMockService();
    vi.spyOn(JSON, 'parse').mockImplementationOnce(() => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    expectError(await read(await post(service, '/questions', '{"type":"binary"}')), 400, 'invalid_request_error', /nested deeper than/);
  });

  it('still answers an ordinary request', async () => {
    const service = createMockService();
    expect((await call(service, 'POST', '/questions', { body: { type: 'binary', title: 'Plain?' } })).status).toBe(201);
  });
});
