// msw intercepts fetch in this file only; the real-HTTP tests live elsewhere.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Readable } from 'node:stream';
import { ForecastingClient } from '../../src/index.js';
import { createMockService } from '../../src/testing/index.js';
import { mockHandlers } from '../../src/testing/msw.js';
import { binary, read, type ErrorBody, type ListBody, type Question } from './_helpers.js';

const baseURL = 'https://forecasting.example/api/v1/external';
const service = createMockService();
const server = setupServer(...mockHandlers(service, { baseURL }));
const headers = { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => service.reset());
afterAll(() => server.close());

describe('mockHandlers (msw)', () => {
  it('sends requests below baseURL to the service', async () => {
    const created = await read<Question>(
      await fetch(`${baseURL}/questions`, { method: 'POST', headers, body: JSON.stringify(binary()) }),
    );
    expect(created.status).toBe(201);
    const list = await read<ListBody<Question>>(await fetch(`${baseURL}/questions?limit=5`, { headers }));
    expect(list.body.data.map((q) => q.id)).toEqual([created.body.id]);
    expect(service.requests.list().map((r) => r.operation)).toEqual(['questions.create', 'questions.list']);
  });

  it('answers the service errors as they are (404 for a trailing slash, 405 with Allow)', async () => {
    expect((await fetch(`${baseURL}/questions/`, { headers })).status).toBe(404);
    const wrong = await fetch(`${baseURL}/questions`, { method: 'PUT', headers });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, POST');
    expect(((await wrong.json()) as ErrorBody).error.type).toBe('invalid_request_error');
  });

  it('turns a dropped connection into a network error', async () => {
    service.faults.add({ operation: 'questions.create', drop: true });
    await expect(fetch(`${baseURL}/questions`, { method: 'POST', headers, body: JSON.stringify(binary()) })).rejects.toBeInstanceOf(
      TypeError,
    );
    expect(service.requests.last()).toMatchObject({ dropped: true });
  });

  it('takes the SDK’s uploads, streamed or not, inside fetch', async () => {
    const client = new ForecastingClient({ apiKey: service.apiKey, baseURL, logLevel: 'off' });
    const q = await client.questions.create({ type: 'binary', title: 'Will it rain?' });
    const streamed = await client.questions.files.upload(q.id, { file: Readable.from([Buffer.from('a,b\n'), Buffer.from('1,2\n')]), filename: 'data.csv' });
    const buffered = await client.questions.files.upload(q.id, { file: new File(['hello'], 'hello.txt') });
    expect([streamed, buffered]).toMatchObject([{ filename: 'data.csv', sizeBytes: 8, status: 'processing' }, { filename: 'hello.txt', sizeBytes: 5 }]);
  });

  it('leaves other addresses unhandled', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(fetch('https://forecasting.example/api/v2/other', { headers })).rejects.toThrow();
    expect(quiet).toHaveBeenCalled();
    quiet.mockRestore();
  });

  it('refuses a baseURL that does not end in /api/v1/external', () => {
    expect(() => mockHandlers(service, { baseURL: 'https://forecasting.example/' })).toThrow(TypeError);
    expect(mockHandlers(service, { baseURL: `${baseURL}/` })).toHaveLength(1);
  });
});
