// The Forecasts group end to end: the SDK against the mock service over real HTTP on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConflictError,
  ContextNotReadyError,
  ForecastAlreadyRunningError,
  NotFoundError,
  PermissionDeniedError,
  TooManyActiveForecastsError,
  ValidationError,
  type ForecastTask,
} from '../../src/index.js';
import { PRICES, type MockForecastEvent } from '../../src/testing/index.js';
import { DEFAULT_BALANCE } from '../../src/testing/models/credits.js';
import { binary, HOUR, KEYS, MINUTE, multipleChoice, numeric, useForecastMock } from './_forecasts.js';

const h = useForecastMock();

describe('forecasts.create', () => {
  it('answers 202 with a queued task carrying the spec’s fields, and sends an Idempotency-Key', async () => {
    const q = await h.client.questions.create(binary);
    const { data: task, response } = await h.client.forecasts.create({ questionId: q.id, runMode: 'light' }).withResponse();
    expect(response.status).toBe(202);
    expect(task).toMatchObject({
      type: 'forecast_task',
      status: 'queued',
      startedAt: null,
      finishedAt: null,
      question: { id: q.id, type: 'binary', title: binary.title },
      pollingUrl: `/api/v1/external/forecasts/${task.id}`,
      partial: true,
      completedSubforecastCount: 0,
      plannedSubforecastCount: 3,
      creditsCharged: PRICES['forecast.light'],
      creditsRefunded: 0,
      runMode: 'light',
      forecast: null,
      preset: null,
    });
    expect(h.mock.service.requests.last()?.idempotencyKey).toMatch(/^sdk-/);
  });

  it('uses the default run mode listed by runModes.list when none is given', async () => {
    const q = await h.client.questions.create(binary);
    const modes = await h.client.runModes.list().toArray();
    expect(modes.map((m) => m.key)).toEqual(['light', 'moderate', 'standard', 'deep', 'max']);
    const task = await h.client.forecasts.create({ questionId: q.id });
    expect(task.runMode).toBe(modes.find((m) => m.isDefault)?.key);
  });

  it('creates an inline question and forecasts it', async () => {
    const preset = await h.client.presets.create({ scope: 'personal', name: 'Preset 1' });
    const task = await h.client.forecasts.create({ question: numeric, presetId: preset.id });
    expect(task.question).toMatchObject({ type: 'numeric', lowerBound: 40, upperBound: 140 });
    expect(task.preset).toEqual({ used: true, id: preset.id, name: 'Preset 1' });
    expect((await h.client.questions.retrieve(task.question.id)).title).toBe(numeric.title);
  });

  it('refuses bad input with ValidationError naming the field, sending nothing', async () => {
    const q = await h.client.questions.create(binary);
    const cases: Array<[unknown, string]> = [
      [{ questionId: q.id, question: binary }, 'questionId'],
      [{}, 'questionId'],
      [{ questionId: q.id, runMode: 'ultra' }, 'runMode'],
      [{ question: { type: 'multiple_choice', title: 'Which?', options: ['only one'] } }, 'question.options'],
      [{ questionId: q.id, context: [{ text: 'x', treatment: 'maybe' }] }, 'context.0.treatment'],
    ];
    for (const [body, field] of cases) {
      const err = await h.client.forecasts.create(body as never).catch((e: unknown) => e);
      expect(err, JSON.stringify(body)).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).field).toBe(field);
    }
    expect(h.count('forecasts.create')).toBe(0);
  });

  it('answers 409 forecast_already_running with the running task’s id, from both start routes', async () => {
    const q = await h.client.questions.create(binary);
    const first = await h.client.forecasts.create({ questionId: q.id });
    for (const start of [() => h.client.forecasts.create({ questionId: q.id }), () => h.client.questions.forecasts.create(q.id)]) {
      const err = await start().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ForecastAlreadyRunningError);
      expect((err as ForecastAlreadyRunningError).activeTaskId).toBe(first.id);
    }
  });

  it('refuses with 409 and charges nothing when the balance is too low; a cancel refunds nothing', async () => {
    const q = await h.client.questions.create(binary);
    h.mock.service.forecastControls.setCredits({ balance: PRICES['forecast.max']! - 1 });
    const err = await h.client.forecasts.create({ questionId: q.id, runMode: 'max' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).toMatchObject({ status: 409, type: 'invalid_request_error' });
    expect((await h.client.credits.retrieve()).balance).toBe(PRICES['forecast.max']! - 1);
    expect((await h.client.forecasts.list()).data).toEqual([]);

    const task = await h.client.forecasts.create({ questionId: q.id, runMode: 'light' });
    await h.client.forecasts.cancel(task.id);
    expect((await h.client.credits.retrieve()).balance).toBe(PRICES['forecast.max']! - 1 - PRICES['forecast.light']!);
  });

  it('answers 429 too_many_active_forecasts past 50 running API forecasts, without retrying', async () => {
    const questions = await Promise.all(Array.from({ length: 51 }, (_, i) => h.client.questions.create({ ...binary, title: `Q${i}` })));
    const results = await h.client.forecasts.createMany(questions.slice(0, 50).map((q) => ({ questionId: q.id, runMode: 'light' as const })));
    expect(results.every((r) => r.status === 'accepted')).toBe(true);
    const before = h.count('forecasts.create');
    const err = await h.client.forecasts.create({ questionId: questions[50]!.id }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TooManyActiveForecastsError);
    expect(h.count('forecasts.create')).toBe(before + 1);
  });

  it('answers 409 context_not_ready listing the processing files, unless allowIncompleteContext', async () => {
    const q = await h.client.questions.create(binary);
    const fileId = h.mock.service.forecastControls.addContextFile(q.id);
    const err = await h.client.forecasts.create({ questionId: q.id }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContextNotReadyError);
    expect((err as ContextNotReadyError).files).toEqual([{ id: fileId, status: 'processing', filename: 'notes.pdf', questionId: q.id }]);
    expect((await h.client.forecasts.create({ questionId: q.id, allowIncompleteContext: true })).status).toBe('queued');
  });

  it('needs questions:write as well to send context notes', async () => {
    const q = await h.client.questions.create(binary);
    const forecaster = h.connect({ apiKey: KEYS.forecaster });
    const err = await forecaster.forecasts.create({ questionId: q.id, context: [{ text: 'The dam opened early.' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermissionDeniedError);
    expect((await forecaster.forecasts.create({ questionId: q.id })).status).toBe('queued');
    const reader = h.connect({ apiKey: KEYS.reader });
    await expect(reader.forecasts.create({ questionId: q.id })).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(h.connect({ apiKey: 'pre_wrong' }).forecasts.list()).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe('the task lifecycle on the mock clock', () => {
  it('moves queued → running_subforecasts → synthesizing → completed, subforecasts finishing one by one', async () => {
    const q = await h.client.questions.create(binary);
    const task = await h.client.forecasts.create({ questionId: q.id, runMode: 'standard' }); // 30 minutes, 5 subforecasts
    const read = () => h.client.forecasts.retrieve(task.id).withResponse();

    let r = await read();
    expect(r.data.status).toBe('queued');
    expect(r.response.headers.get('retry-after')).toBe('15');

    h.mock.clock.advance(2 * MINUTE); // queued for 5 % of 30 min = 1.5 min
    r = await read();
    expect(r.data).toMatchObject({ status: 'running_subforecasts', completedSubforecastCount: 0, plannedSubforecastCount: 5 });
    expect(r.data.startedAt).not.toBeNull();
    expect(r.response.headers.get('retry-after')).toBe('120');

    const counts: number[] = [];
    for (let i = 0; i < 5; i++) {
      h.mock.clock.advance((24 * MINUTE) / 5);
      counts.push((await h.client.forecasts.retrieve(task.id)).completedSubforecastCount);
    }
    expect(counts).toEqual([1, 2, 3, 4, 5]);
    r = await read();
    expect(r.data.status).toBe('synthesizing');
    expect(r.data.progressMessage).toMatch(/Combining/);

    h.mock.clock.advance(4.2 * MINUTE); // completes at 30 min; the report waits 30 s, then is written in 90 s
    r = await read();
    // The mock's choice: 15 s more while the report is being written, nothing once it is done.
    expect(r.response.headers.get('retry-after')).toBe('15');
    expect(r.data).toMatchObject({ status: 'completed', partial: false, forecast: { report: { status: 'pending', short: null } } });
    expect(r.data.finishedAt).not.toBeNull();
    expect(r.data.subforecasts?.every((s) => s.status === 'completed' && s.completedAt)).toBe(true);

    h.mock.clock.advance(0.5 * MINUTE);
    expect((await h.client.forecasts.retrieve(task.id)).forecast?.report?.status).toBe('writing');
    h.mock.clock.advance(2 * MINUTE);
    const { data: done, response } = await read();
    expect(response.headers.get('retry-after')).toBeNull();
    expect(done.forecast?.report).toMatchObject({ status: 'completed', short: expect.any(String), medium: expect.stringContaining('##') });
    expect(done.forecast?.sources?.[0]).toMatchObject({ kind: 'web', display_name: expect.any(String) });
  });

  it('leaves out report and sources with fields=numeric, and adds subforecast data with includeSubforecasts', async () => {
    const q = await h.client.questions.create(binary);
    const task = await h.client.forecasts.create({ questionId: q.id, runMode: 'light' });
    h.mock.clock.advance(HOUR);
    const numericOnly = await h.client.forecasts.retrieve(task.id, { fields: 'numeric' });
    expect(numericOnly.forecast).not.toHaveProperty('report');
    expect(numericOnly.forecast).not.toHaveProperty('sources');
    expect(numericOnly.forecast?.forecastData.questionType).toBe('binary');
    const full = await h.client.forecasts.retrieve(task.id, { includeSubforecasts: true });
    expect(full.subforecasts?.[0]).toMatchObject({ forecastData: { questionType: 'binary' }, writeUp: expect.any(String), sources: expect.any(Array) });
    expect((await h.client.forecasts.retrieve(task.id)).subforecasts?.[0]).not.toHaveProperty('forecastData');
  });

  it('emits forecast.started, .completed and .report.completed on the event bus', async () => {
    const events: MockForecastEvent[] = [];
    const off = h.mock.service.events.on((e) => events.push(e));
    const q = await h.client.questions.create(binary);
    const task = await h.client.forecasts.create({ questionId: q.id, runMode: 'light' });
    h.mock.clock.advance(HOUR);
    off();
    const mine = events.filter((e) => e.taskId === task.id);
    expect(mine.map((e) => e.type)).toEqual(['forecast.started', 'forecast.completed', 'forecast.report.completed']);
    expect(mine[1]).toMatchObject({ questionId: q.id, forecastId: expect.any(String), ownerId: 'u1' });
    expect(mine[2]).toMatchObject({ reportStatus: 'completed', forecastId: mine[1]!.forecastId });
  });

  it('fails a task when a test asks, with error.message and forecast.failed; a failed report still ends', async () => {
    const events: MockForecastEvent[] = [];
    const off = h.mock.service.events.on((e) => events.push(e));
    const [q1, q2] = await Promise.all([h.client.questions.create(binary), h.client.questions.create({ ...binary, title: 'Other' })]);
    h.mock.service.forecastControls.setOutcome(q1.id, { task: 'failed', message: 'No sources could be read' });
    h.mock.service.forecastControls.setOutcome(q2.id, { report: 'failed' });
    const [t1, t2] = await Promise.all([q1, q2].map((q) => h.client.forecasts.create({ questionId: q.id, runMode: 'light' })));
    h.mock.clock.advance(HOUR);
    off();
    const failed = await h.client.forecasts.retrieve(t1!.id);
    expect(failed).toMatchObject({ status: 'failed', error: { message: 'No sources could be read' }, forecast: null, partial: true });
    expect(failed.completedSubforecastCount).toBeLessThan(failed.plannedSubforecastCount);
    expect(events.filter((e) => e.taskId === t1!.id).map((e) => e.type)).toEqual(['forecast.started', 'forecast.failed']);
    const reportFailed = await h.client.forecasts.retrieve(t2!.id);
    expect(reportFailed).toMatchObject({ status: 'completed', forecast: { report: { status: 'failed', short: null } } });
    expect(events.find((e) => e.taskId === t2!.id && e.type === 'forecast.report.completed')?.reportStatus).toBe('failed');
  });

  it('cancels a running task: cancelled, forecast.cancelled, no further moves; repeating is safe', async () => {
    const events: MockForecastEvent[] = [];
    const off = h.mock.service.events.on((e) => events.push(e));
    const q = await h.client.questions.create(binary);
    const task = await h.client.forecasts.create({ questionId: q.id, runMode: 'light' });
    h.mock.clock.advance(MINUTE);
    const cancelled = await h.client.forecasts.cancel(task.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', finishedAt: expect.any(String) });
    expect((await h.client.forecasts.cancel(task.id)).status).toBe('cancelled');
    h.mock.clock.advance(HOUR);
    off();
    expect((await h.client.forecasts.retrieve(task.id)).status).toBe('cancelled');
    expect(events.filter((e) => e.taskId === task.id).map((e) => e.type)).toEqual(['forecast.started', 'forecast.cancelled']);
    expect((await h.client.forecasts.create({ questionId: q.id })).status).toBe('queued');
  });

  it('answers 404 for an unknown task and for another user’s task', async () => {
    const q = await h.client.questions.create(binary);
    const task = await h.client.forecasts.create({ questionId: q.id });
    await expect(h.client.forecasts.retrieve('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
    await expect(h.connect({ apiKey: KEYS.other }).forecasts.retrieve(task.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('forecastData', () => {
  const completed = async (body: object): Promise<ForecastTask> => {
    const q = await h.client.questions.create(body as never);
    const task = await h.client.forecasts.create({ questionId: q.id, runMode: 'light' });
    h.mock.clock.advance(HOUR);
    return h.client.forecasts.retrieve(task.id);
  };
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

  it('gives a binary probability in [0, 1], typed only for binary', async () => {
    const data = (await completed(binary)).forecast!.forecastData;
    expect(data.questionType).toBe('binary');
    if (data.questionType === 'binary') {
      expect(data.format).toBe('probability');
      expect(data.payload.probability).toBeGreaterThanOrEqual(0);
      expect(data.payload.probability).toBeLessThanOrEqual(1);
    }
  });

  it('gives multiple choice probabilities keyed by option text, summing to 1', async () => {
    const data = (await completed(multipleChoice)).forecast!.forecastData;
    if (data.questionType !== 'multiple_choice') throw new Error('wrong type');
    expect(Object.keys(data.payload.probabilities)).toEqual(['Red', 'Blue', 'Green']);
    expect(sum(Object.values(data.payload.probabilities))).toBeCloseTo(1, 6);
  });

  it('gives numeric, log-scale and date distributions with a monotone CDF within the bounds', async () => {
    const cases = [
      numeric,
      { type: 'numeric', title: 'BTC?', lowerBound: 1000, upperBound: 1_000_000, scaleType: 'logarithmic', openUpperBound: true },
      { type: 'date', title: 'When?', lowerBound: 1_767_225_600, upperBound: 1_893_456_000 },
      // Bounds whose difference overflows a double: every number still finite.
      { type: 'numeric', title: 'Extreme?', lowerBound: -1.7e308, upperBound: 1.7e308, scaleType: 'linear' },
      // Where doubles are 2 apart: the edges still never step back.
      { type: 'numeric', title: 'Coarse?', lowerBound: 1e16, upperBound: 1e16 + 8, scaleType: 'linear' },
    ];
    for (const body of cases) {
      const data = (await completed(body)).forecast!.forecastData;
      if (data.questionType !== 'numeric' && data.questionType !== 'date') throw new Error('wrong type');
      const p = data.payload;
      expect(data.format).toBe('probability_mass_function');
      expect(p.bucket_edges[0]).toBeCloseTo(body.lowerBound, 0);
      expect(p.bucket_edges.at(-1)).toBeCloseTo(body.upperBound, 0);
      expect(p.probability_mass_function).toHaveLength(p.bucket_edges.length - 1);
      expect(p.probability_mass_function.every((x) => x >= 0)).toBe(true);
      expect(sum(p.probability_mass_function) + p.above_upper_probability).toBeCloseTo(1, 5);
      expect(p.cumulative_distribution_function.every((c, i, a) => i === 0 || c >= a[i - 1]!)).toBe(true);
      expect(p.percentiles.p10).toBeLessThanOrEqual(p.percentiles.p50);
      expect(p.percentiles.p50).toBeLessThanOrEqual(p.percentiles.p90);
      expect(p.percentiles.p10).toBeGreaterThanOrEqual(body.lowerBound);
      expect(p.percentiles.p90).toBeLessThanOrEqual(body.upperBound);
      if (body.type === 'date') expect(Number.isInteger(p.percentiles.p50)).toBe(true);
      expect(p.scaleType).toBe(body.type === 'numeric' ? body.scaleType : null);
      expect([...Object.values(p.percentiles), ...p.bucket_edges, ...p.cumulative_distribution_function].every(Number.isFinite)).toBe(true);
      expect(p.bucket_edges.every((e, i, a) => i === 0 || e >= a[i - 1]!)).toBe(true);
      expect([p.bucket_edges[0], p.bucket_edges.at(-1)]).toEqual([body.lowerBound, body.upperBound]);
    }
  });

  it('gives a discrete probability array over nominal_values with cell boundaries', async () => {
    const data = (await completed({ type: 'discrete', title: 'Goals?', lowerBound: 0, upperBound: 12 })).forecast!.forecastData;
    if (data.questionType !== 'discrete') throw new Error('wrong type');
    const p = data.payload;
    expect(p.nominal_values).toEqual(Array.from({ length: 13 }, (_, i) => i));
    expect(p.probabilities).toHaveLength(13);
    expect(sum(p.probabilities)).toBeCloseTo(1, 6);
    expect(p.cell_boundaries).toEqual([...p.nominal_values.map((v) => v - 0.5), 12.5]);
    expect(p.percentiles.p10 <= p.percentiles.p50 && p.percentiles.p50 <= p.percentiles.p90).toBe(true);
  });

  it('gives the same answer for the same question and seed, and reads it the same every time', async () => {
    const { forecastDataFor } = await import('../../src/testing/index.js');
    const q = await h.client.questions.create(numeric);
    expect(forecastDataFor(q, 'seed-1')).toEqual(forecastDataFor(q, 'seed-1'));
    expect(forecastDataFor(q, 'seed-1')).not.toEqual(forecastDataFor(q, 'seed-2'));
    const task = await h.client.forecasts.create({ questionId: q.id, runMode: 'light' });
    h.mock.clock.advance(HOUR);
    const [a, b] = await Promise.all([h.client.forecasts.retrieve(task.id), h.client.forecasts.retrieve(task.id)]);
    expect(a.forecast?.forecastData).toEqual(b.forecast?.forecastData);
    expect(a.forecast?.forecastData).toEqual(forecastDataFor(q, task.id));
  });
});

describe('forecasts.list and questions.forecasts', () => {
  it('filters by status, questionId, taskId (repeated or comma separated) and autoforecast, newest first', async () => {
    const [a, b, c] = await Promise.all(['A', 'B', 'C'].map((title) => h.client.questions.create({ ...binary, title })));
    const ta = await h.client.forecasts.create({ questionId: a!.id, runMode: 'light' });
    h.mock.clock.advance(HOUR);
    const tb = await h.client.forecasts.create({ questionId: b!.id });
    const tc = await h.client.forecasts.create({ questionId: c!.id });
    const ids = async (params: Parameters<typeof h.client.forecasts.list>[0]) => (await h.client.forecasts.list(params)).data.map((t) => t.taskId);

    expect(await ids({})).toEqual([tc.id, tb.id, ta.id]);
    expect(await ids({ status: 'completed' })).toEqual([ta.id]);
    expect(await ids({ status: ['queued', 'completed'] })).toEqual([tc.id, tb.id, ta.id]);
    expect(await ids({ questionId: `${a!.id},${c!.id}` })).toEqual([tc.id, ta.id]);
    expect(await ids({ taskId: [ta.id, tb.id] })).toEqual([tb.id, ta.id]);
    expect(await ids({ taskId: `${ta.id},${tc.id}` })).toEqual([tc.id, ta.id]);
    expect(await ids({ autoforecast: 'any' })).toEqual([]);
    expect(h.mock.service.requests.last()?.path).toContain('autoforecast=any');

    const item = (await h.client.forecasts.list({ taskId: ta.id })).data[0]!;
    expect(item).toMatchObject({ taskId: ta.id, status: 'completed', report: { status: 'completed', short: expect.any(String) } });
    expect(item.forecastData?.questionType).toBe('binary');
    expect((await h.client.forecasts.list({ taskId: tb.id })).data[0]).toMatchObject({ forecastData: null, report: { status: 'pending', short: null } });
    expect((await h.client.forecasts.list({ taskId: ta.id, fields: 'numeric' })).data[0]).not.toHaveProperty('report');
  });

  it('gives every list item a report {status, short}, pending before writing starts, never null', async () => {
    const q = await h.client.questions.create(binary);
    const cancelled = await h.client.forecasts.create({ questionId: q.id, runMode: 'light' });
    await h.client.forecasts.cancel(cancelled.id);
    const task = await h.client.forecasts.create({ questionId: q.id, runMode: 'light' });
    const reports = async () => {
      const lists = [await h.client.forecasts.list(), await h.client.questions.forecasts.list(q.id)];
      return lists.map((page) => Object.fromEntries(page.data.map((t) => [t.taskId === task.id ? 'task' : 'cancelled', t.report])));
    };
    const pending = { status: 'pending', short: null };
    for (const list of await reports()) expect(list).toEqual({ task: pending, cancelled: pending });

    h.mock.clock.advance(5 * MINUTE); // completed; the report waits 30 s before writing starts
    for (const list of await reports()) expect(list).toEqual({ task: pending, cancelled: pending });
    h.mock.clock.advance(MINUTE);
    for (const list of await reports()) expect(list.task).toEqual({ status: 'writing', short: null });
    h.mock.clock.advance(MINUTE);
    for (const list of await reports()) expect(list.task).toEqual({ status: 'completed', short: expect.stringContaining(binary.title) });
  });

  it('shows a colleague’s forecasts on shared questions only with scope=all_visible', async () => {
    const shared = await h.client.questions.create({ ...binary, visibility: 'organization' });
    const own = await h.client.questions.create({ ...binary, title: 'Private' });
    const [ts] = await Promise.all([shared, own].map((q) => h.client.forecasts.create({ questionId: q.id })));
    const colleague = h.connect({ apiKey: KEYS.colleague });
    expect((await colleague.forecasts.list()).data).toEqual([]);
    expect((await colleague.forecasts.list({ scope: 'all_visible' })).data.map((t) => t.taskId)).toEqual([ts!.id]);
    expect((await colleague.forecasts.retrieve(ts!.id)).id).toBe(ts!.id);
  });

  it('pages with limit and cursor across every forecast', async () => {
    const questions = await Promise.all(Array.from({ length: 7 }, (_, i) => h.client.questions.create({ ...binary, title: `P${i}` })));
    await h.client.forecasts.createMany(questions.map((q) => ({ questionId: q.id })));
    const page = await h.client.forecasts.list({ limit: 3 });
    expect(page.data).toHaveLength(3);
    expect(page.hasMore).toBe(true);
    expect(await h.client.forecasts.list({ limit: 3 }).toArray()).toHaveLength(7);
  });

  it('lists and runs a question’s forecasts', async () => {
    const q = await h.client.questions.create(binary);
    const first = await h.client.questions.forecasts.create(q.id, { runMode: 'light', presetId: 'none' });
    expect(first).toMatchObject({ status: 'queued', runMode: 'light', preset: null });
    h.mock.clock.advance(HOUR);
    const second = await h.client.questions.forecasts.create(q.id);
    expect((await h.client.questions.forecasts.list(q.id)).data.map((t) => t.taskId)).toEqual([second.id, first.id]);
    expect((await h.client.questions.forecasts.list(q.id, { status: 'completed' })).data.map((t) => t.taskId)).toEqual([first.id]);
    await expect(h.client.questions.forecasts.list('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('locks a forecast question’s fields, and markForecasted makes a real completed forecast', async () => {
    const q = await h.client.questions.create(binary);
    h.mock.service.markForecasted(q.id);
    const [item] = (await h.client.questions.forecasts.list(q.id)).data;
    expect(item).toMatchObject({ status: 'completed', forecastData: { questionType: 'binary' } });
    await expect(h.client.questions.update(q.id, { title: 'New title' })).rejects.toBeInstanceOf(ConflictError);
  });
});

describe('credits.retrieve and runModes.list', () => {
  it('shows the balance, the price of every run mode and the plan', async () => {
    const credits = await h.client.credits.retrieve();
    expect(credits).toMatchObject({
      balance: DEFAULT_BALANCE,
      unlimited: false,
      topUps: [],
      plan: { key: 'payg', status: 'active', currentPeriodEnd: null, cancelAtPeriodEnd: false, creditsPerPeriod: 0 },
    });
    expect(credits.prices.map((p) => p.key)).toContain('monitoring.question_month');
    const modes = await h.client.runModes.list().toArray();
    for (const mode of modes) {
      expect(credits.prices.find((p) => p.key === `forecast.${mode.key}`)?.credits).toBe(mode.credits);
    }
    expect(modes.find((m) => m.key === 'max')?.approximateMinutes).toBe(90);
    expect(modes.find((m) => m.key === 'light')?.approximateMinutes).toBe(5);
  });

  it('charges each started forecast the price of its run mode; unlimited charges no balance', async () => {
    const [a, b] = await Promise.all([h.client.questions.create(binary), h.client.questions.create({ ...binary, title: 'B' })]);
    await h.client.forecasts.create({ questionId: a!.id, runMode: 'deep' });
    expect((await h.client.credits.retrieve()).balance).toBe(DEFAULT_BALANCE - PRICES['forecast.deep']!);
    h.mock.service.forecastControls.setCredits({ unlimited: true, balance: 0 });
    expect((await h.client.forecasts.create({ questionId: b!.id, runMode: 'max' })).creditsCharged).toBe(PRICES['forecast.max']);
    expect((await h.client.credits.retrieve()).balance).toBe(0);
  });
});
