// forecasts.runMany end to end: hundreds of forecasts on the mock with its real limits (50 running
// per user, 60 requests a minute, batches of 25, credits), on a manual clock the client's waits move,
// so hours of forecast time take a second or two.
import diagnostics from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { CHANNELS } from '../../src/core/channels.js';
import { ForecastingClient, ValidationError, type ForecastCreateParams, type RunManyProgress, type RunManyResult } from '../../src/index.js';
import { mockClientOptions } from '../../src/testing/index.js';
import { binary, useForecastMock } from './_forecasts.js';

const h = useForecastMock();

/** `n` questions, made before the limits are switched on. */
async function questionIds(n: number, client: ForecastingClient = h.client): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 50) {
    const made = await Promise.all(Array.from({ length: Math.min(50, n - i) }, (_, k) => client.questions.create({ ...binary, title: `Run many ${i + k}` })));
    ids.push(...made.map((q) => q.id));
  }
  return ids;
}

async function collect<T>(run: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of run) out.push(r);
  return out;
}

/** Forecasts the mock holds per question id. */
const forecastsPerQuestion = () => {
  const per = new Map<string, number>();
  for (const f of h.mock.service.store.forecasts.list()) per.set(f.questionId, (per.get(f.questionId) ?? 0) + 1);
  return per;
};

const lightItems = (ids: string[]): ForecastCreateParams[] => ids.map((questionId) => ({ questionId, runMode: 'light' }));

describe("the mock's record of running forecasts", () => {
  it('counts the most running at once and refuses the 51st start with too_many_active_forecasts', async () => {
    const ids = await questionIds(51);
    await h.client.forecasts.createMany(lightItems(ids.slice(0, 50)));
    const over = await h.client.forecasts.createBatch({ items: [{ questionId: ids[50]! }] });
    expect(over.items[0]).toMatchObject({ status: 'rejected', error: { type: 'too_many_active_forecasts' } });
    expect(h.mock.service.forecastControls.activity()).toMatchObject({
      started: 50,
      active: 50,
      maxActive: 50,
      refused: { too_many_active_forecasts: 1 },
    });
  });
});

describe('forecasts.runMany', () => {
  it('runs 200 forecasts with the real limits on: all complete, never more than 50 running, no refusal, no 429', async () => {
    const ids = await questionIds(200);
    h.mock.service.requests.clear();
    h.mock.service.setRateLimit({ requestsPerMinute: 60 });
    const client = h.connect({ rateLimit: { requestsPerMinute: 60 } });

    const results = await collect(client.forecasts.runMany(lightItems(ids)));

    expect(results).toHaveLength(200);
    expect(results.every((r) => r.status === 'completed')).toBe(true);
    expect(results.map((r) => r.index).sort((a, b) => a - b)).toEqual(ids.map((_, i) => i));
    const activity = h.mock.service.forecastControls.activity();
    // The mock's own record: it refuses the 51st running forecast, so more than 50 would show as refusals.
    expect(activity.maxActive).toBe(50);
    expect(activity.refused).toEqual({});
    expect(activity.started).toBe(200);
    expect(h.mock.service.requests.count({ status: 429 })).toBe(0);
    expect([...forecastsPerQuestion().values()].every((n) => n === 1)).toBe(true);
    // Batches of 25, one list request a polling round, one run-modes read for the prices.
    expect(h.count('forecasts.createBatch')).toBe(8);
    expect(h.count('forecasts.create') + h.count('forecasts.retrieve')).toBe(0);
    expect(h.count('runModes.list')).toBe(1);
    expect(h.mock.service.requests.length).toBe(8 + 1 + h.count('forecasts.list'));
  });

  it('yields results in completion order, each with its index and item, as they finish', async () => {
    const ids = await questionIds(30);
    // Modes of different lengths: the light ones (odd indexes) finish first.
    const items: ForecastCreateParams[] = ids.map((questionId, i) => ({ questionId, runMode: i % 2 ? 'light' : 'deep' }));
    const results = await collect(h.client.forecasts.runMany(items, { maxActive: 30 }));
    expect(results.slice(0, 15).every((r) => r.index % 2 === 1)).toBe(true);
    expect(results.every((r) => r.item === items[r.index])).toBe(true);
    const first = results[0]!;
    if (first.status !== 'completed') throw new Error(`expected completed, got ${first.status}`);
    expect(first.task).toMatchObject({ taskId: first.taskId, status: 'completed', forecastData: { questionType: 'binary' } });
    expect(first.resumed).toBe(false);
  });

  it('pulls the input lazily: never more than one batch ahead of what is running', async () => {
    const ids = await questionIds(120);
    let pulled = 0;
    let finished = 0;
    let ahead = 0;
    function* items() {
      for (const questionId of ids) {
        pulled++;
        ahead = Math.max(ahead, pulled - finished);
        yield { questionId, runMode: 'light' as const };
      }
    }
    for await (const r of h.client.forecasts.runMany(items(), { maxActive: 20 })) {
      expect(r.status).toBe('completed');
      finished++;
    }
    expect(finished).toBe(120);
    expect(ahead).toBeLessThanOrEqual(20 + 20);
  });

  // A run closed its input in its `finally` whether or not it had read it to the end: an iterator
  // that said `done`, or whose `next()` threw, was asked to `return()` too (held a defect).
  it('closes its input only when it leaves it early, as for…of does', async () => {
    const ids = await questionIds(3);
    const input = (fail?: Error) => {
      const counts = { next: 0, return: 0 };
      const items = lightItems(ids);
      const iterator: Iterator<ForecastCreateParams> = {
        next: () => {
          counts.next++;
          if (fail && counts.next === 2) throw fail;
          const value = items.shift();
          return value ? { done: false, value } : { done: true, value: undefined };
        },
        return: () => (counts.return++, { done: true, value: undefined }),
      };
      return { counts, items: { [Symbol.iterator]: () => iterator } };
    };
    const whole = input();
    expect((await collect(h.client.forecasts.runMany(whole.items))).map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
    expect(whole.counts).toEqual({ next: 4, return: 0 });
    const broken = input(new Error('the input failed'));
    await expect(collect(h.client.forecasts.runMany(broken.items, { maxActive: 1 }))).rejects.toThrow('the input failed');
    expect(broken.counts.return).toBe(0);
    const left = input();
    for await (const r of h.client.forecasts.runMany(left.items, { maxActive: 1 })) if (r) break;
    expect(left.counts.return).toBe(1);
  });

  it('reports a refused item and a failed forecast as results, and keeps going', async () => {
    const ids = await questionIds(4);
    h.mock.service.forecastControls.setOutcome(ids[1]!, { task: 'failed', message: 'No sources found' });
    const items: ForecastCreateParams[] = [
      { questionId: ids[0]!, runMode: 'light' },
      { questionId: ids[1]!, runMode: 'light' },
      { questionId: '00000000-0000-4000-8000-000000000000' },
      { questionId: ids[2]!, runMode: 'light' },
      { questionId: ids[2]!, runMode: 'light' }, // the same question again: one forecast at a time
    ];
    const results = await collect(h.client.forecasts.runMany(items));
    const byIndex = new Map(results.map((r) => [r.index, r]));
    expect(byIndex.get(0)?.status).toBe('completed');
    expect(byIndex.get(1)).toMatchObject({ status: 'failed', task: { status: 'failed', progressMessage: 'No sources found' } });
    expect(byIndex.get(2)).toMatchObject({ status: 'rejected', error: { type: 'not_found' } });
    expect(byIndex.get(3)?.status).toBe('completed');
    expect(byIndex.get(4)).toMatchObject({ status: 'rejected', error: { type: 'forecast_already_running' } });
  });

  it('with full: true, yields full task records', async () => {
    const ids = await questionIds(3);
    const results: Array<RunManyResult<import('../../src/index.js').ForecastTask>> = await collect(h.client.forecasts.runMany(lightItems(ids), { full: true }));
    for (const r of results) {
      if (r.status !== 'completed') throw new Error(r.status);
      expect(r.task.creditsCharged).toBe(1);
      expect(r.task.forecast?.forecastData.questionType).toBe('binary');
    }
    expect(h.count('forecasts.retrieve')).toBe(3);
  });

  it('stops starting on short credits: the refused item and every later one are not_started, nothing is charged for them', async () => {
    const ids = await questionIds(80);
    h.mock.service.forecastControls.setCredits({ balance: 30 });
    const results = await collect(h.client.forecasts.runMany(lightItems(ids)));
    expect(results).toHaveLength(80);
    const notStarted = results.filter((r) => r.status === 'not_started');
    expect(results.filter((r) => r.status === 'completed')).toHaveLength(30);
    expect(notStarted.map((r) => r.index).sort((a, b) => a - b)).toEqual(ids.slice(30).map((_, i) => 30 + i));
    expect(notStarted.find((r) => r.index === 30)).toMatchObject({ reason: 'insufficient_credits', error: { type: 'invalid_request_error' } });
    expect(notStarted.find((r) => r.index === 79)).not.toHaveProperty('error');
    expect(h.mock.service.forecastControls.credits().balance).toBe(0);
    // Batch 0 (25) and batch 1 (5 of 25 accepted, then the refusal); nothing sent after.
    expect(h.count('forecasts.createBatch')).toBe(2);
    expect(h.mock.service.forecastControls.activity().refused).toEqual({ insufficient_credits: 20 });
  });

  it('reports counts by status, credits spent and an ETA', async () => {
    const ids = await questionIds(60);
    const seen: RunManyProgress[] = [];
    await collect(h.client.forecasts.runMany(lightItems(ids), { runId: 'progress-run', onProgress: (p) => seen.push(p) }));
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ runId: 'progress-run', read: 60, total: 60, started: 60, resumed: 0, active: 0, done: 60, creditsSpent: 60, etaMs: 0, stopped: undefined });
    expect(last.counts).toEqual({ queued: 0, running_subforecasts: 0, synthesizing: 0, completed: 60, failed: 0, cancelled: 0, rejected: 0, not_started: 0 });
    expect(seen.some((p) => p.counts.running_subforecasts > 0)).toBe(true);
    const midway = seen.find((p) => p.done > 0 && p.done < 60)!;
    expect(midway.etaMs).toBeGreaterThan(0);
  });

  it('on abort stops starting and waits for the running ones; with cancelOnAbort cancels them in bulk', async () => {
    const ids = await questionIds(200);
    const controller = new AbortController();
    const results: RunManyResult[] = [];
    for await (const r of h.client.forecasts.runMany(lightItems(ids.slice(0, 100)), { signal: controller.signal })) {
      results.push(r);
      controller.abort();
    }
    // The first 50 ran to the end; nothing more was started.
    expect(results).toHaveLength(50);
    expect(results.every((r) => r.status === 'completed')).toBe(true);
    expect(h.mock.service.forecastControls.activity().started).toBe(50);

    const second = new AbortController();
    const cancelled: RunManyResult[] = [];
    const run = h.client.forecasts.runMany(lightItems(ids.slice(100)), {
      signal: second.signal,
      cancelOnAbort: true,
      onProgress: (p) => {
        if (p.started === 50) second.abort();
      },
    });
    for await (const r of run) cancelled.push(r);
    expect(cancelled).toHaveLength(50);
    expect(cancelled.every((r) => r.status === 'cancelled')).toBe(true);
    expect(h.count('forecasts.cancelBatch')).toBe(2);
    expect(h.mock.service.forecastControls.activity().active).toBe(0);
  });

  it('starts again, under keys of their own, the items refused because forecasts started elsewhere filled the service', async () => {
    const ids = await questionIds(70);
    // 40 forecasts of the same user, started outside the run, still running when it starts.
    await h.client.forecasts.createMany(ids.slice(0, 40).map((questionId) => ({ questionId, runMode: 'light' })));
    const results = await collect(h.client.forecasts.runMany(lightItems(ids.slice(40)), { runId: 'crowded' }));
    expect(results).toHaveLength(30);
    expect(results.every((r) => r.status === 'completed')).toBe(true);
    const activity = h.mock.service.forecastControls.activity();
    expect(activity.maxActive).toBe(50);
    expect(activity.refused['too_many_active_forecasts']).toBeGreaterThan(0);
    const keys = h.mock.service.requests.list({ operation: 'forecasts.createBatch' }).map((r) => r.idempotencyKey);
    expect(keys).toContain('crowded:0:r1');
    expect([...forecastsPerQuestion().values()].every((n) => n === 1)).toBe(true);
  });

  it('sends a batch the service answered 429 for again, with the same key, after its Retry-After', async () => {
    const ids = await questionIds(5);
    h.mock.service.faults.add({ operation: 'forecasts.createBatch', status: 429, type: 'too_many_active_forecasts', retryAfter: 40 });
    const results = await collect(h.client.forecasts.runMany(lightItems(ids), { runId: 'full-once' }));
    expect(results.every((r) => r.status === 'completed')).toBe(true);
    const [refused, sent] = h.mock.service.requests.list({ operation: 'forecasts.createBatch' });
    expect([refused!.status, sent!.status]).toEqual([429, 202]);
    expect(sent!.idempotencyKey).toBe(refused!.idempotencyKey);
    expect(sent!.at - refused!.at).toBeGreaterThanOrEqual(40_000);
  });

  it('waits out a 429 as long as its Retry-After asks', async () => {
    const ids = await questionIds(10);
    h.mock.service.requests.clear();
    h.mock.service.faults.add({ operation: 'forecasts.list', status: 429, retryAfter: 30, times: 2 });
    const results = await collect(h.client.forecasts.runMany(lightItems(ids)));
    expect(results.every((r) => r.status === 'completed')).toBe(true);
    const log = h.mock.service.requests.list();
    const limited = log.filter((r) => r.status === 429);
    expect(limited).toHaveLength(2);
    for (const hit of limited) {
      const next = log[log.indexOf(hit) + 1]!;
      expect(next.at - hit.at).toBeGreaterThanOrEqual(Number(hit.retryAfter) * 1000);
    }
  });

  it('refuses a maxActive above the service limit, and a runId too long for a key, before sending', async () => {
    const err = await collect(h.client.forecasts.runMany([], { maxActive: 51 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).field).toBe('maxActive');
    const long = await collect(h.client.forecasts.runMany([], { runId: 'x'.repeat(101) })).catch((e: unknown) => e);
    expect((long as ValidationError).field).toBe('runId');
    expect(h.mock.service.requests.length).toBe(0);
  });

  // Each promise was sent as an item (all refused), and one that rejected went unhandled (Node exits on it).
  it('awaits the promises a sync iterable yields, as for await does: one that rejects ends the run with its error', async () => {
    const [id] = await questionIds(1);
    const items = [Promise.resolve({ questionId: id!, runMode: 'light' as const })];
    expect((await collect(h.client.forecasts.runMany(items as never))).map((r) => r.status)).toEqual(['completed']);
    const failing = [Promise.reject(new Error('lookup failed'))];
    await expect(collect(h.client.forecasts.runMany(failing as never))).rejects.toThrow('lookup failed');
  });

  // An onProgress that was no function threw only after the first batch had started (credits spent).
  it('refuses an onProgress that is no function, and a total that is no whole number, before starting anything', async () => {
    const items = lightItems(await questionIds(2));
    for (const [field, options] of [['onProgress', { onProgress: true }], ['total', { total: 'x2' }], ['total', { total: -1 }], ['total', { total: 1.5 }]] as const) {
      const err = await collect(h.client.forecasts.runMany(items, options as never)).catch((e: unknown) => e);
      expect([err instanceof ValidationError, (err as ValidationError).field]).toEqual([true, field]);
    }
    expect(h.mock.service.store.forecasts.list()).toEqual([]);
    // `null` is no option, as for every other.
    expect((await collect(h.client.forecasts.runMany(items, { total: null, onProgress: null } as never))).map((r) => r.status)).toEqual(['completed', 'completed']);
  });

  // An error of the input's return() took the place of the one that ended the run (for…of keeps the first).
  it('ends with the error that ended the run when the input\'s return() throws too, and with that one after a break', async () => {
    const ids = await questionIds(2);
    const input = () => {
      const iterator: Iterator<ForecastCreateParams> = {
        next: () => ({ done: false, value: { questionId: ids[0]!, runMode: 'light' } }),
        return: () => {
          throw new Error('return() failed');
        },
      };
      return { [Symbol.iterator]: () => iterator };
    };
    const stranger = new ForecastingClient({ ...mockClientOptions(h.mock), apiKey: 'fsk_not_a_key_the_mock_knows_0000000' });
    await expect(collect(stranger.forecasts.runMany(input(), { maxActive: 1 }))).rejects.toMatchObject({ status: 401 });
    const leftEarly = async () => {
      for await (const r of h.client.forecasts.runMany(input(), { maxActive: 1 })) if (r) break;
    };
    // The trace says so too (it said the run had ended well).
    const events: string[] = [];
    const subscriber = Object.fromEntries(['start', 'error', 'asyncEnd'].map((e) => [e, (m: { kind: string }) => void (m.kind === 'runMany' && events.push(e))]));
    const channel = diagnostics.tracingChannel(CHANNELS.wait);
    channel.subscribe(subscriber as never);
    try {
      await expect(leftEarly()).rejects.toThrow('return() failed');
    } finally {
      channel.unsubscribe(subscriber as never);
    }
    expect(events).toEqual(['start', 'error', 'asyncEnd']);
  });

  it('resumes a run killed after about 300 starts: the rerun with the same runId starts nothing twice and yields every result', async () => {
    const ids = await questionIds(600);
    h.mock.service.setRateLimit({ requestsPerMinute: 60 });
    const items = lightItems(ids);
    // The first run's process "dies" once 300 forecasts have started: the answer that reports the
    // 300th start never arrives, and nothing it sends afterwards does either.
    const options = mockClientOptions(h.mock);
    let dead = false;
    let die!: () => void;
    const died = new Promise<void>((resolve) => (die = resolve));
    const dying: typeof fetch = async (input, init) => {
      if (dead) return new Promise<Response>(() => {});
      const response = await options.fetch(input, init);
      if (h.mock.service.forecastControls.activity().started >= 300) {
        dead = true;
        die();
      }
      return dead ? new Promise<Response>(() => {}) : response;
    };
    const first = h.connect({ clock: options.clock, fetch: dying, rateLimit: { requestsPerMinute: 60 } });
    const before: RunManyResult[] = [];
    const crashed = (async () => {
      for await (const r of first.forecasts.runMany(items, { runId: 'crash-run' })) before.push(r);
    })();
    void crashed;
    await died;
    const startedBefore = h.mock.service.forecastControls.activity().started;
    expect(startedBefore).toBeGreaterThanOrEqual(300);
    expect(startedBefore).toBeLessThan(350);

    const second = h.connect({ rateLimit: { requestsPerMinute: 60 } });
    const after = await collect(second.forecasts.runMany(items, { runId: 'crash-run' }));
    expect(after).toHaveLength(600);
    expect(after.every((r) => r.status === 'completed')).toBe(true);
    expect(new Set(after.map((r) => r.index)).size).toBe(600);
    expect(after.filter((r) => r.status === 'completed' && r.resumed)).toHaveLength(startedBefore);
    // The mock's record: every question forecast exactly once, never more than 50 at once.
    const per = forecastsPerQuestion();
    expect(per.size).toBe(600);
    expect([...per.values()].every((n) => n === 1)).toBe(true);
    const activity = h.mock.service.forecastControls.activity();
    expect(activity.started).toBe(600);
    expect(activity.maxActive).toBeLessThanOrEqual(50);
    expect(activity.refused).toEqual({});
    expect(h.mock.service.requests.list({ operation: 'forecasts.createBatch' }).filter((r) => r.replayed)).toHaveLength(startedBefore / 25);
  }, 60_000);
});
