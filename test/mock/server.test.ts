// Real HTTP on 127.0.0.1; this file never starts msw.
import { afterEach, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { createMockService, DEFAULT_SERVER_TIME_SCALE, ManualClock, ScaledClock, startMockServer, type MockServer } from '../../src/testing/index.js';
import { binary, read, type ErrorBody, type Question } from './_helpers.js';

let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

function post(m: MockServer, path: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(`${m.baseURL}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${m.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...init,
  });
}

describe('startMockServer (real HTTP)', () => {
  it('listens on 127.0.0.1 under /api/v1/external and exposes key, service and clock', async () => {
    mock = await startMockServer();
    expect(mock.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/external$/);
    expect(mock.apiKey).toBe(mock.service.apiKey);
    expect(mock.clock).toBe(mock.service.clock);
  });

  it('runs a clock by default: a ScaledClock at 600x starting at the real time now', async () => {
    const before = Date.now();
    mock = await startMockServer();
    expect(DEFAULT_SERVER_TIME_SCALE).toBe(600);
    expect(mock.clock).toBeInstanceOf(ScaledClock);
    expect((mock.clock as ScaledClock).timeScale).toBe(DEFAULT_SERVER_TIME_SCALE);
    expect(mock.clock.now()).toBeGreaterThanOrEqual(before);
    expect(mock.clock.now() - Date.now()).toBeLessThan(60_000); // well under a real second has passed
    // The service alone keeps its deterministic default.
    expect(createMockService().clock).toBeInstanceOf(ManualClock);
  });

  it('completes a default forecast for a client with no options but key and address, within a few seconds', async () => {
    mock = await startMockServer();
    const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' });
    const question = await client.questions.create({ type: 'binary', title: 'Will the default clock run?' });
    const task = await client.forecasts.createAndWait({ questionId: question.id }, { timeout: 8_000 });
    expect([task.runMode, task.status]).toEqual(['standard', 'completed']);
  });

  it('uses the clock it is given, and the service’s own', async () => {
    const clock = new ManualClock();
    mock = await startMockServer({ clock });
    expect(mock.clock).toBe(clock);
    await mock.close();
    const service = createMockService();
    mock = await startMockServer({ service });
    expect(mock.clock).toBe(service.clock);
  });

  it('creates and reads back a question over HTTP', async () => {
    mock = await startMockServer();
    const created = await read<Question>(await post(mock, '/questions', binary()));
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/json');
    const got = await read<Question>(
      await fetch(`${mock.baseURL}/questions/${created.body.id}`, { headers: { 'x-api-key': mock.apiKey } }),
    );
    expect(got.body).toEqual(created.body);
    expect(mock.service.requests.count()).toBe(2);
  });

  it('answers 405 with Allow and 404 for a trailing slash over HTTP', async () => {
    mock = await startMockServer();
    const headers = { authorization: `Bearer ${mock.apiKey}` };
    const wrong = await fetch(`${mock.baseURL}/questions`, { method: 'DELETE', headers });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, POST');
    expect(((await wrong.json()) as ErrorBody).error.type).toBe('invalid_request_error');
    expect((await fetch(`${mock.baseURL}/questions/`, { headers })).status).toBe(404);
    expect((await fetch(mock.baseURL.replace('/api/v1/external', '/elsewhere'), { headers })).status).toBe(404);
  });

  it('drops the connection: fetch fails with a network error and nothing is created', async () => {
    mock = await startMockServer({ faults: [{ operation: 'questions.create', drop: true }] });
    const error: unknown = await post(mock, '/questions', binary()).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(TypeError);
    expect(mock.service.store.questions.size).toBe(0);
    expect(mock.service.requests.last()).toMatchObject({ operation: 'questions.create', dropped: true, status: null });
    // The server keeps serving after a drop.
    expect((await post(mock, '/questions', binary())).status).toBe(201);
  });

  it('drops the connection after handling: fetch fails but the question exists', async () => {
    mock = await startMockServer({ faults: [{ operation: 'questions.create', drop: true, afterHandling: true }] });
    await expect(post(mock, '/questions', binary())).rejects.toBeInstanceOf(TypeError);
    expect(mock.service.store.questions.size).toBe(1);
    expect(mock.service.requests.last()).toMatchObject({ status: 201, dropped: true });
  });

  it('delays an answer long enough for a client timeout', async () => {
    mock = await startMockServer({ faults: [{ operation: 'questions.list', delayMs: 5_000 }] });
    const started = performance.now();
    const error: unknown = await fetch(`${mock.baseURL}/questions`, {
      headers: { 'x-api-key': mock.apiKey },
      signal: AbortSignal.timeout(100),
    }).catch((err: unknown) => err);
    expect((error as Error).name).toBe('TimeoutError');
    expect(performance.now() - started).toBeLessThan(4_000);
  });

  it('sends a malformed body as it is', async () => {
    mock = await startMockServer({ faults: [{ operation: 'questions.list', malformed: true, status: 502 }] });
    const res = await fetch(`${mock.baseURL}/questions`, { headers: { 'x-api-key': mock.apiKey } });
    expect(res.status).toBe(502);
    await expect(res.json()).rejects.toThrow();
  });

  it('serves a given service, and close() stops listening', async () => {
    const service = createMockService();
    mock = await startMockServer({ service });
    expect(mock.service).toBe(service);
    const { baseURL } = mock;
    await mock.close();
    mock = undefined;
    await expect(fetch(`${baseURL}/questions`)).rejects.toBeInstanceOf(TypeError);
  });

  it('closes once: a second close(), at once or later, resolves when the first is done', async () => {
    const server = await startMockServer();
    const { baseURL } = server;
    let firstDone = false;
    const first = server.close().then(() => (firstDone = true));
    // Called while the first is under way: it waits for that one, never "Server is not running".
    await server.close();
    expect(firstDone).toBe(true);
    await first;
    await expect(server.close()).resolves.toBeUndefined();
    await expect(fetch(`${baseURL}/questions`)).rejects.toBeInstanceOf(TypeError);
    // Still served again on a fresh server, as after one close.
    mock = await startMockServer({ service: server.service });
    expect((await fetch(`${mock.baseURL}/questions`, { headers: { authorization: `Bearer ${mock.apiKey}` } })).status).toBe(200);
  });

  it('runs a scaled clock for a demo: 1.5 hours pass in 9 seconds at 600x', async () => {
    mock = await startMockServer({ timeScale: 600 });
    const before = mock.clock.now();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // 50 ms real ≈ 30 s of clock time.
    expect(mock.clock.now() - before).toBeGreaterThanOrEqual(25_000);
  });
});
