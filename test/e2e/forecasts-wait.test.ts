// Waiting for forecasts end to end: wait, createAndWait, waitMany and the request budget, against the
// mock over real HTTP. The client's clock moves the mock's manual clock, so hours pass in milliseconds.
import { describe, expect, it } from 'vitest';
import {
  ForecastingClient,
  IdempotencyInProgressError,
  NotFoundError,
  WaitTimeoutError,
  type ForecastProgress,
} from '../../src/index.js';
import { binary, HOUR, KEYS, MINUTE, useForecastMock } from './_forecasts.js';

const h = useForecastMock();

const questions = (n: number, prefix = 'W') =>
  Promise.all(Array.from({ length: n }, (_, i) => h.client.questions.create({ ...binary, title: `${prefix}${i}` })));

describe('forecasts.wait', () => {
  it('waits across a 1.5-hour max forecast in a moment (a manual clock), never reading faster than Retry-After', async () => {
    const [q] = await questions(1);
    const task = await h.client.forecasts.create({ questionId: q!.id, runMode: 'max' });
    const startedAt = performance.now();
    const done = await h.client.forecasts.wait(task.id);
    expect(performance.now() - startedAt).toBeLessThan(3000); // 1.5 hours of mock time; 0.5 s on a quiet machine
    expect(done.status).toBe('completed');
    expect(Date.parse(done.finishedAt!) - Date.parse(done.createdAt)).toBe(90 * MINUTE);

    const reads = h.mock.service.requests.list({ operation: 'forecasts.retrieve' });
    for (let i = 1; i < reads.length; i++) {
      const asked = reads[i - 1]!.at - Date.parse(task.createdAt) < 4.5 * MINUTE ? 15_000 : 120_000;
      expect(reads[i]!.at - reads[i - 1]!.at).toBeGreaterThanOrEqual(asked);
    }
    // 18 reads 15 s apart while queued, then one per 2 minutes: about 60 reads, not 5,400 one-second polls.
    expect(reads.length).toBeLessThan(70);
  });

  it('reports progress through onProgress and the progress emitter: status changes, subforecasts, done, report', async () => {
    const [q] = await questions(1);
    const task = await h.client.forecasts.create({ questionId: q!.id, runMode: 'standard' });
    const seen: ForecastProgress[] = [];
    const events: string[] = [];
    const listeners = {
      status: (p: ForecastProgress) => events.push(`status:${p.status}`),
      subforecast: (p: ForecastProgress) => events.push(`subforecast:${p.completedSubforecastCount}/${p.plannedSubforecastCount}`),
      done: (p: ForecastProgress) => events.push(`done:${p.status}`),
      report: (p: ForecastProgress) => events.push(`report:${p.reportStatus}`),
    };
    for (const [name, fn] of Object.entries(listeners)) h.client.forecasts.progress.on(name as keyof typeof listeners, fn);
    const done = await h.client.forecasts.wait(task.id, { waitForReport: true, onProgress: (p) => seen.push(p) });
    expect(done.forecast?.report?.status).toBe('completed');
    expect(events[0]).toBe('status:queued');
    expect(events).toContain('status:running_subforecasts');
    expect(events).toContain('status:synthesizing');
    expect(events).toContain('subforecast:5/5');
    expect(events.filter((e) => e.startsWith('done:'))).toEqual(['done:completed']);
    expect(events.at(-1)).toBe('report:completed');
    expect(seen.every((p) => p.taskId === task.id)).toBe(true);
    expect(seen[1]?.previousStatus).toBe(seen[0]?.status);
    expect(seen.at(-1)).toMatchObject({ final: true, reportStatus: 'completed' });
  });

  it('resolves with a failed forecast as a result, not an exception', async () => {
    const [q] = await questions(1);
    h.mock.service.forecastControls.setOutcome(q!.id, { task: 'failed', message: 'The research step timed out' });
    const task = await h.client.forecasts.createAndWait({ questionId: q!.id, runMode: 'light' });
    expect(task).toMatchObject({ status: 'failed', error: { message: 'The research step timed out' } });
  });

  it('ends a waitForReport wait when the report fails', async () => {
    const [q] = await questions(1);
    h.mock.service.forecastControls.setOutcome(q!.id, { report: 'failed' });
    const task = await h.client.forecasts.createAndWait({ questionId: q!.id, runMode: 'light' }, { waitForReport: true });
    expect(task.forecast?.report?.status).toBe('failed');
  });

  it('rejects an aborted wait at once with the caller’s reason, though the server asked to wait 15 s', async () => {
    const [q] = await questions(1);
    const realTime = new ForecastingClient({ apiKey: KEYS.all, baseURL: h.mock.baseURL, logLevel: 'off' });
    const task = await realTime.forecasts.create({ questionId: q!.id });
    const controller = new AbortController();
    const reason = new Error('user pressed Ctrl-C');
    const startedAt = performance.now();
    const waiting = realTime.forecasts.wait(task.id, { signal: controller.signal, onProgress: () => controller.abort(reason) });
    await expect(waiting).rejects.toBe(reason);
    expect(performance.now() - startedAt).toBeLessThan(1000);
    expect(h.count('forecasts.retrieve')).toBe(1);
  });

  it('rejects at once, sending nothing, when the signal is already aborted', async () => {
    const reason = new Error('stop');
    await expect(h.client.forecasts.wait('any-task', { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(h.mock.service.requests.count()).toBe(0);
  });

  it('rejects with WaitTimeoutError after the overall timeout, carrying the last state seen', async () => {
    const [q] = await questions(1);
    const task = await h.client.forecasts.create({ questionId: q!.id, runMode: 'deep' });
    const err = await h.client.forecasts.wait(task.id, { timeout: 10 * MINUTE }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect((err as WaitTimeoutError).taskIds).toEqual([task.id]);
    expect((err as WaitTimeoutError).lastSeen[0]).toMatchObject({ id: task.id, status: 'running_subforecasts' });
    expect(h.mock.clock.now() - Date.parse(task.createdAt)).toBe(10 * MINUTE);
  });
});

describe('forecasts.createAndWait', () => {
  it('never starts a second forecast when the connection drops after the service started the first', async () => {
    const [q] = await questions(1);
    h.mock.service.faults.add({ operation: 'forecasts.create', drop: true, afterHandling: true });
    const task = await h.client.forecasts.createAndWait({ questionId: q!.id, runMode: 'light' });
    expect(task.status).toBe('completed');
    const creates = h.mock.service.requests.list({ operation: 'forecasts.create' });
    expect(creates).toHaveLength(2);
    expect(creates[1]!.idempotencyKey).toBe(creates[0]!.idempotencyKey);
    expect((await h.client.questions.forecasts.list(q!.id)).data).toHaveLength(1);
  });

  it('replays the same task when re-run with the same idempotencyKey', async () => {
    const [q] = await questions(1);
    const first = await h.client.forecasts.createAndWait({ questionId: q!.id, runMode: 'light' }, { idempotencyKey: 'job-7' });
    const again = await h.client.forecasts.createAndWait({ questionId: q!.id, runMode: 'light' }, { idempotencyKey: 'job-7' });
    expect(again.id).toBe(first.id);
    expect((await h.client.questions.forecasts.list(q!.id)).data).toHaveLength(1);
  });
});

describe('idempotency of POST /forecasts', () => {
  it('replays the first answer for the same key and body, with Idempotent-Replayed: true', async () => {
    const [q] = await questions(1);
    const first = await h.client.forecasts.create({ questionId: q!.id }, { idempotencyKey: 'k1' }).withResponse();
    const second = await h.client.forecasts.create({ questionId: q!.id }, { idempotencyKey: 'k1' }).withResponse();
    expect(second.data.id).toBe(first.data.id);
    expect(second.response.status).toBe(202);
    expect(second.response.headers.get('idempotent-replayed')).toBe('true');
    expect(first.response.headers.get('idempotent-replayed')).toBeNull();
    expect((await h.client.forecasts.list()).data).toHaveLength(1);
  });

  it('refuses the same key with a different body (400)', async () => {
    const [a, b] = await questions(2);
    await h.client.forecasts.create({ questionId: a!.id }, { idempotencyKey: 'k2' });
    await expect(h.client.forecasts.create({ questionId: b!.id }, { idempotencyKey: 'k2' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('Idempotency-Key'),
    });
  });

  it('answers 409 idempotency_in_progress while the first request is still handled', async () => {
    const [q] = await questions(1);
    h.mock.service.faults.add({ operation: 'forecasts.create', delayMs: 150 });
    const first = h.client.forecasts.create({ questionId: q!.id }, { idempotencyKey: 'k3' });
    await new Promise((resolve) => setImmediate(resolve));
    while (h.count('forecasts.create') === 0) await new Promise((resolve) => setImmediate(resolve));
    const err = await h.client.forecasts.create({ questionId: q!.id }, { idempotencyKey: 'k3', maxRetries: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyInProgressError);
    expect((await first).status).toBe('queued');
  });

  it('frees the key when the first request failed, so a retry runs normally', async () => {
    const [q] = await questions(1);
    h.mock.service.forecastControls.setCredits({ balance: 0 });
    await expect(h.client.forecasts.create({ questionId: q!.id }, { idempotencyKey: 'k4' })).rejects.toMatchObject({ status: 409 });
    h.mock.service.forecastControls.setCredits({ balance: 100 });
    const task = await h.client.forecasts.create({ questionId: q!.id }, { idempotencyKey: 'k4' }).withResponse();
    expect(task.response.headers.get('idempotent-replayed')).toBeNull();
    expect(task.data.status).toBe('queued');
  });

  it('keeps a key 24 hours on the mock clock, per API key', async () => {
    const [q] = await questions(1);
    const first = await h.client.forecasts.create({ questionId: q!.id, runMode: 'light' }, { idempotencyKey: 'k5' });
    h.mock.clock.advance(23 * HOUR);
    expect((await h.client.forecasts.create({ questionId: q!.id, runMode: 'light' }, { idempotencyKey: 'k5' })).id).toBe(first.id);
    h.mock.clock.advance(HOUR);
    expect((await h.client.forecasts.create({ questionId: q!.id, runMode: 'light' }, { idempotencyKey: 'k5' })).id).not.toBe(first.id);
  });

  it('is ignored by operations that take no key', async () => {
    const headers = { 'idempotency-key': 'k6' };
    const a = await h.client.questions.create(binary, { headers });
    const b = await h.client.questions.create(binary, { headers });
    expect(a.id).not.toBe(b.id);
  });
});

describe('forecasts.waitMany', () => {
  it('waits for 50 forecasts with one list read per round, resolving full records in input order', async () => {
    const qs = await questions(50);
    const results = await h.client.forecasts.createMany(qs.map((q, i) => ({ questionId: q.id, runMode: i % 2 ? ('light' as const) : ('standard' as const) })));
    const ids = results.map((r) => r.taskId!);
    const progress = new Set<string>();
    const tasks = await h.client.forecasts.waitMany(ids, { onProgress: (p) => progress.add(p.taskId) });
    expect(tasks.map((t) => t.id)).toEqual(ids);
    expect(tasks.every((t) => t.status === 'completed' && t.forecast?.forecastData)).toBe(true);
    expect(progress.size).toBe(50);
    const rounds = h.mock.service.requests.list({ operation: 'forecasts.list' });
    expect(rounds.length).toBeLessThan(25);
    expect(decodeURIComponent(rounds[0]!.path)).toContain(`taskId=${ids.join(',')}`);
    // One full read per task, once final: far below 50 tasks × 30 minutes of one-second polling.
    expect(h.count('forecasts.retrieve')).toBe(50);
  });

  it('resolves with the list items and no extra reads with full: false, waiting for reports when asked', async () => {
    const qs = await questions(3);
    const ids = (await h.client.forecasts.createMany(qs.map((q) => ({ questionId: q.id, runMode: 'light' as const })))).map((r) => r.taskId!);
    const items = await h.client.forecasts.waitMany(ids, { full: false, waitForReport: true });
    expect(items.map((i) => i.taskId)).toEqual(ids);
    expect(items.every((i) => i.report?.status === 'completed')).toBe(true);
    expect(h.count('forecasts.retrieve')).toBe(0);
  });

  it('reads more than 100 tasks in pages of 100 ids per round', async () => {
    const ids: string[] = [];
    for (const batch of [50, 50, 20]) {
      const qs = await questions(batch, `B${ids.length}-`);
      const started = await h.client.forecasts.createMany(qs.map((q) => ({ questionId: q.id, runMode: 'light' as const })));
      ids.push(...started.map((r) => r.taskId!));
      h.mock.clock.advance(HOUR);
    }
    await h.client.forecasts.waitMany(ids, { full: false });
    const rounds = h.mock.service.requests.list({ operation: 'forecasts.list' });
    expect(rounds).toHaveLength(2);
    expect(rounds.map((r) => new URL(`http://x${r.path}`).searchParams.get('taskId')!.split(',').length)).toEqual([100, 20]);
  });

  it('rejects with NotFoundError for an id the service does not know', async () => {
    await expect(h.client.forecasts.waitMany(['00000000-0000-4000-8000-000000000000'])).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('the client-wide request budget', () => {
  // 50 forecasts started, then read twice over at once: 102 requests in the same instant of mock time.
  const burst = async (client: ForecastingClient) => {
    const qs = await questions(50);
    h.mock.service.setRateLimit({ requestsPerMinute: 60 });
    const started = await client.forecasts.createMany(qs.map((q) => ({ questionId: q.id, runMode: 'light' as const })));
    const ids = started.map((r) => r.taskId!);
    return Promise.all([...ids, ...ids].map((id) => client.forecasts.retrieve(id)));
  };

  it('spaces a burst of 102 requests so that the service’s 60-a-minute limit never answers 429', async () => {
    const startedAt = h.mock.clock.now();
    const tasks = await burst(h.connect({ rateLimit: { requestsPerMinute: 60 }, maxRetries: 0 }));
    expect(tasks).toHaveLength(100);
    expect(h.mock.service.requests.count({ status: 429 })).toBe(0);
    expect(h.mock.clock.now() - startedAt).toBeGreaterThanOrEqual(60_000);
  });

  it('is needed: without it the same burst meets the service’s 429', async () => {
    await expect(burst(h.connect({ maxRetries: 0 }))).rejects.toMatchObject({ status: 429 });
  });

  it('is shared by waits: 50 forecasts waited on one by one never meet a 429', async () => {
    const qs = await questions(50);
    h.mock.service.setRateLimit({ requestsPerMinute: 60 });
    const budgeted = h.connect({ rateLimit: { requestsPerMinute: 60 }, maxRetries: 0 });
    const started = await budgeted.forecasts.createMany(qs.map((q) => ({ questionId: q.id, runMode: 'light' as const })));
    const tasks = await Promise.all(started.map((r) => budgeted.forecasts.wait(r.taskId!)));
    expect(tasks.every((t) => t.status === 'completed')).toBe(true);
    expect(h.mock.service.requests.count({ status: 429 })).toBe(0);
  });
});
