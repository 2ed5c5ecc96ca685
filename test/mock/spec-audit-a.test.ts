// Spec audit (groups Forecasts, Questions, Question context, Webhooks, Account, Forecast chat):
// the mock over real HTTP on 127.0.0.1 against spec/service-spec.md. This file never starts msw.
// "When the SDK and the mock disagree, the spec decides."
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock, startMockServer, type MockServer } from '../../src/testing/index.js';

let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const MINUTE = 60_000;

interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

async function send(m: MockServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${m.baseURL}${path}`, {
    method,
    headers: { 'x-api-key': m.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

async function question(m: MockServer, title: string): Promise<string> {
  const res = await send(m, 'POST', '/questions', { type: 'binary', title });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

describe('POST /forecasts/batch (spec "Payload shapes" → "POST /forecasts/batch")', () => {
  // Spec, "States and transitions" → "Forecast task", first row: "(none) | start forecast (single,
  // batch item, question forecast, schedule, watch) | request accepted | `queued` | response 202".
  // POST /forecasts and POST /questions/{question_id}/forecasts answer 202 (src/api/forecasts.ts
  // declared `status: 202` for both); `forecasts.createBatch` declared no status, so the mock answered
  // 200. The batch section itself names no status: the table's row decides.
  it('answers 202 when it starts forecasts, as every other start does', async () => {
    mock = await startMockServer({ clock: new ManualClock() });
    const a = await question(mock, 'Will the Loire flood before 2028?');
    const b = await question(mock, 'Will the Rhone flood before 2028?');
    const res = await send(mock, 'POST', '/forecasts/batch', { items: [{ questionId: a, runMode: 'light' }, { questionId: b, runMode: 'light' }] });
    expect(res.body.counts).toEqual({ total: 2, accepted: 2, rejected: 0 });
    expect(res.status).toBe(202);
  });
});

describe('a synthesizing task (spec "States and transitions" → "Forecast task")', () => {
  // Passing; pins rules no other test reads on `synthesizing`:
  // - "While a task is not final, a read carries `Retry-After`: 15 seconds while `queued`, 120 while running."
  // - "`queued` or `running_subforecasts` or `synthesizing` | `POST /forecasts/{task_id}/cancel` ... |
  //   `cancelled` | `forecast.cancelled` event; work done is not refunded; repeating the cancel is safe"
  // - Events → Body: "data.forecastId | the forecast; null on `forecast.started`, `forecast.failed`,
  //   `forecast.cancelled`"; "JSON, keys in alphabetical order, no spaces."
  it('reads with Retry-After 120, cancels to cancelled with forecast.cancelled, and never completes', async () => {
    const clock = new ManualClock();
    mock = await startMockServer({ clock });
    const hook = await send(mock, 'POST', '/webhooks', { url: 'https://hooks.example.com/forecasts', eventKinds: ['forecast.cancelled', 'forecast.completed'] });
    expect(hook.status).toBe(201);
    const questionId = await question(mock, 'Will the Garonne flood before 2028?');
    const started = await send(mock, 'POST', '/forecasts', { questionId, runMode: 'light' });
    expect(started.status).toBe(202);
    const taskId = started.body.id as string;

    // A light run of the mock lasts 5 minutes: queued 5 %, subforecasts 80 %, synthesizing the last 15 %.
    clock.advance(4.5 * MINUTE);
    const read = await send(mock, 'GET', `/forecasts/${taskId}`);
    expect(read.body.status).toBe('synthesizing');
    expect(read.headers.get('retry-after')).toBe('120');

    const cancelled = await send(mock, 'POST', `/forecasts/${taskId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', creditsCharged: 1, creditsRefunded: 0 });
    expect((await send(mock, 'POST', `/forecasts/${taskId}/cancel`)).body.status).toBe('cancelled');

    clock.advance(60 * MINUTE);
    const later = await send(mock, 'GET', `/forecasts/${taskId}`);
    expect(later.body.status).toBe('cancelled');
    expect(later.headers.get('retry-after')).toBeNull();

    await mock.service.webhooks.idle();
    const bodies = mock.service.webhooks.calls().map((c) => c.body);
    const types = bodies.map((b) => (JSON.parse(b) as { type: string }).type);
    expect(types).toContain('forecast.cancelled');
    expect(types).not.toContain('forecast.completed');
    const body = bodies.find((b) => b.includes('"type":"forecast.cancelled"'))!;
    const event = JSON.parse(body) as { id: string; data: Record<string, unknown> };
    expect(event.data).toMatchObject({ taskId, questionId, forecastId: null, forecastUrl: `${mock.baseURL}/forecasts/${taskId}` });
    expect(event.id.split(':')).toContain('forecast.cancelled');
    // Alphabetical keys at every level, no spaces.
    expect(body).toBe(JSON.stringify(JSON.parse(body), (_k, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v)));
    expect(body).not.toMatch(/[:,] /);
  });
});
