// Schedules and watches end to end: forecasts started on the mock clock, cadence and size limits.
import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../../src/index.js';
import { DEFAULT_BALANCE, PRICES } from '../../src/testing/models/credits.js';
import { binary, HOUR, useForecastMock } from './_forecasts.js';

const h = useForecastMock();
const iso = (ms: number) => new Date(ms).toISOString();

describe('questions.schedule', () => {
  it('starts a forecast at each due time with its presetId, counting occurrences and moving nextDueAt', async () => {
    const q = await h.client.questions.create(binary);
    const { id: p1 } = await h.client.presets.create({ scope: 'personal', name: 'P1' });
    const start = h.mock.clock.now() + HOUR;
    const schedule = await h.client.questions.schedule.update(q.id, { intervalCount: 6, intervalUnit: 'hours', startAt: iso(start), presetId: p1 });
    expect(schedule).toMatchObject({ questionId: q.id, intervalCount: 6, intervalUnit: 'hours', nextDueAt: iso(start), occurrenceCount: 0, presetId: p1 });
    expect((await h.client.forecasts.list()).data).toEqual([]);

    h.mock.clock.advance(HOUR);
    const after = await h.client.questions.schedule.retrieve(q.id);
    expect(after).toMatchObject({ occurrenceCount: 1, nextDueAt: iso(start + 6 * HOUR) });
    const [started] = (await h.client.forecasts.list({ autoforecast: 'schedule' })).data;
    expect(started).toMatchObject({ questionId: q.id, autoforecast: 'schedule' });
    expect((await h.client.forecasts.retrieve(started!.taskId)).preset).toEqual({ used: true, id: p1, name: 'P1' });

    h.mock.clock.advance(12 * HOUR);
    expect((await h.client.questions.schedule.retrieve(q.id)).occurrenceCount).toBe(3);
    expect((await h.client.forecasts.list({ autoforecast: 'any' })).data).toHaveLength(3);
    expect((await h.client.forecasts.list({ autoforecast: 'watch' })).data).toHaveLength(0);
  });

  it('refuses a cadence faster than every 3 hours, before sending and on the service', async () => {
    const q = await h.client.questions.create(binary);
    const err = await h.client.questions.schedule.update(q.id, { intervalCount: 2, intervalUnit: 'hours' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).field).toBe('intervalCount');
    expect(h.count('questions.schedule.update')).toBe(0);
    const raw = await fetch(`${h.mock.baseURL}/questions/${q.id}/schedule`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${h.mock.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ intervalCount: 1, intervalUnit: 'hours' }),
    });
    expect(raw.status).toBe(400);
    await expect(h.client.questions.schedule.update(q.id, { intervalCount: 1, intervalUnit: 'days', startAt: 'tomorrow' })).rejects.toBeInstanceOf(ValidationError);
  });

  it('stops after 50 forecasts, or at endAt', async () => {
    const [a, b] = await Promise.all([h.client.questions.create(binary), h.client.questions.create({ ...binary, title: 'B' })]);
    await h.client.questions.schedule.update(a.id, { intervalCount: 3, intervalUnit: 'hours' });
    const now = h.mock.clock.now();
    await h.client.questions.schedule.update(b.id, { intervalCount: 1, intervalUnit: 'days', endAt: iso(now + 2.5 * 24 * HOUR) });
    h.mock.clock.advance(60 * 3 * HOUR);
    expect(await h.client.questions.schedule.retrieve(a.id)).toMatchObject({ occurrenceCount: 50, nextDueAt: null });
    expect(await h.client.questions.schedule.retrieve(b.id)).toMatchObject({ occurrenceCount: 3, nextDueAt: null });
    expect((await h.client.questions.forecasts.list(a.id, { limit: 100 })).data).toHaveLength(50);
  });

  // A `startAt` years back replayed every time missed since, each in turn, in one timer callback (a
  // year 1000 start froze the mock for a minute); the service skips a time it cannot start.
  it('skips the times a startAt long past has missed: one forecast now, then the next time of the cadence after now', async () => {
    const q = await h.client.questions.create(binary);
    const now = h.mock.clock.now();
    for (const [startAt, unit, step] of [['1000-01-01T00:00:00.000Z', 'hours', 3 * HOUR], ['-271821-04-20T00:00:00.000Z', 'days', 3 * 24 * HOUR]] as const) {
      await h.client.questions.schedule.update(q.id, { intervalCount: 3, intervalUnit: unit, startAt });
      h.mock.clock.advance(0);
      const next = Date.parse((await h.client.questions.schedule.retrieve(q.id)).nextDueAt!);
      expect((next - Date.parse(startAt)) % step).toBe(0);
      expect(next).toBeGreaterThan(now);
      expect(next - step).toBeLessThanOrEqual(now);
    }
    // Every 3 months from a 31st: Jan 31, Apr 30, Jul 31, Oct 31 of each year.
    await h.client.questions.schedule.update(q.id, { intervalCount: 3, intervalUnit: 'months', startAt: '1000-01-31T06:00:00.000Z' });
    h.mock.clock.advance(0);
    const year = new Date(now).getUTCFullYear();
    const times = [year, year + 1].flatMap((y) => [[0, 31], [3, 30], [6, 31], [9, 31]].map(([m, d]) => Date.UTC(y, m!, d!, 6)));
    expect((await h.client.questions.schedule.retrieve(q.id)).nextDueAt).toBe(iso(times.find((t) => t > now)!));
  });

  // Months overflowed (`setUTCMonth`): from Jan 31 the next was Mar 3, February skipped, and each
  // time counted from the one before, so the day a late timer landed on depended on how late.
  it('keeps a monthly day, or the month’s last, counted from startAt: Jan 31, Feb 28, Mar 31, Apr 30', async () => {
    const q = await h.client.questions.create(binary);
    let year = new Date(h.mock.clock.now()).getUTCFullYear() + 1;
    while (new Date(Date.UTC(year, 1, 29)).getUTCDate() === 29) year++; // a year whose February has 28 days
    const startAt = iso(Date.UTC(year, 0, 31));
    await h.client.questions.schedule.update(q.id, { intervalCount: 1, intervalUnit: 'months', startAt });
    const seen = [];
    for (let i = 0; i < 4; i++) {
      const { nextDueAt } = await h.client.questions.schedule.retrieve(q.id);
      seen.push(nextDueAt!.slice(5, 10));
      h.mock.clock.advance(Date.parse(nextDueAt!) - h.mock.clock.now());
    }
    expect(seen).toEqual(['01-31', '02-28', '03-31', '04-30']);
  });

  it('leaves nothing due when endAt is already past, whenever startAt is', async () => {
    const q = await h.client.questions.create(binary);
    const balance = (await h.client.credits.retrieve()).balance;
    await h.client.questions.schedule.update(q.id, { intervalCount: 1, intervalUnit: 'days', startAt: '2020-01-01T00:00:00.000Z', endAt: '2020-06-01T00:00:00.000Z' });
    h.mock.clock.advance(24 * HOUR);
    expect(await h.client.questions.schedule.retrieve(q.id)).toMatchObject({ nextDueAt: null, occurrenceCount: 0 });
    expect((await h.client.credits.retrieve()).balance).toBe(balance);
  });

  // An `intervalCount` so large that the next time is past the dates a `Date` holds threw a
  // RangeError in the clock's timer: under `startMockServer()`'s clock, an uncaught exception that
  // ended the process. The schedule ends instead.
  it('ends a schedule whose next time is past the last date', async () => {
    const q = await h.client.questions.create(binary);
    for (const [intervalCount, intervalUnit] of [[1e9, 'months'], [Number.MAX_SAFE_INTEGER, 'hours'], [1e12, 'days']] as const) {
      await h.client.questions.schedule.update(q.id, { intervalCount, intervalUnit });
      h.mock.clock.advance(0);
      expect(await h.client.questions.schedule.retrieve(q.id)).toMatchObject({ nextDueAt: null });
    }
  });

  it('replaces a schedule when sent again, lists schedules, and deletes one leaving a running forecast alone', async () => {
    const q = await h.client.questions.create(binary);
    await h.client.questions.schedule.update(q.id, { intervalCount: 1, intervalUnit: 'days' });
    const replaced = await h.client.questions.schedule.update(q.id, { intervalCount: 1, intervalUnit: 'months' });
    expect(replaced.intervalUnit).toBe('months');
    expect((await h.client.schedules.list()).data.map((s) => s.questionId)).toEqual([q.id]);
    h.mock.clock.advance(1);
    const [running] = (await h.client.forecasts.list()).data;
    expect(running?.status).toBe('queued');
    await h.client.questions.schedule.delete(q.id);
    await expect(h.client.questions.schedule.retrieve(q.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(h.client.questions.schedule.delete(q.id)).rejects.toBeInstanceOf(NotFoundError);
    h.mock.clock.advance(60 * 24 * HOUR);
    expect((await h.client.forecasts.list()).data.map((t) => [t.taskId, t.status])).toEqual([[running!.taskId, 'completed']]);
  });
});

describe('questions.watch', () => {
  it('starts a forecast when the news moves the question by more than changeThreshold', async () => {
    const q = await h.client.questions.create(binary);
    const { id: p2 } = await h.client.presets.create({ scope: 'personal', name: 'P2' });
    const watch = await h.client.questions.watch.update(q.id, { enabled: true, changeThreshold: 0.1, presetId: p2 });
    expect(watch).toMatchObject({ questionId: q.id, enabled: true, changeThreshold: 0.1, presetId: p2 });
    expect(h.mock.service.forecastControls.moveNews(q.id, 0.05)).toBeNull();
    const started = h.mock.service.forecastControls.moveNews(q.id, -0.2);
    expect(started?.startedBy).toBe('watch');
    const [item] = (await h.client.forecasts.list({ autoforecast: 'watch' })).data;
    expect(item).toMatchObject({ taskId: started!.id, autoforecast: 'watch' });
    expect((await h.client.forecasts.retrieve(item!.taskId)).preset).toEqual({ used: true, id: p2, name: 'P2' });
  });

  it('charges the monthly monitoring fee when switched on, and 409 with no change when credits are short', async () => {
    const [a, b] = await Promise.all([h.client.questions.create(binary), h.client.questions.create({ ...binary, title: 'B' })]);
    await h.client.questions.watch.update(a.id, { enabled: true, changeThreshold: 0.1 });
    await h.client.questions.watch.update(a.id, { enabled: true, changeThreshold: 0.2 });
    expect((await h.client.credits.retrieve()).balance).toBe(DEFAULT_BALANCE - PRICES['monitoring.question_month']!);
    h.mock.service.forecastControls.setCredits({ balance: 0 });
    await expect(h.client.questions.watch.update(b.id, { enabled: true })).rejects.toBeInstanceOf(ConflictError);
    await expect(h.client.questions.watch.retrieve(b.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('stops starting forecasts when disabled or deleted, and lists watches', async () => {
    const q = await h.client.questions.create(binary);
    await h.client.questions.watch.update(q.id, { enabled: true, changeThreshold: 0 });
    expect((await h.client.watches.list()).data.map((w) => w.questionId)).toEqual([q.id]);
    await h.client.questions.watch.update(q.id, { enabled: false });
    expect(h.mock.service.forecastControls.moveNews(q.id, 1)).toBeNull();
    await h.client.questions.watch.delete(q.id);
    await expect(h.client.questions.watch.retrieve(q.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(h.client.questions.watch.update(q.id, { enabled: true, changeThreshold: -1 })).rejects.toBeInstanceOf(ValidationError);
    await expect(h.client.questions.watch.update('00000000-0000-4000-8000-000000000000', { enabled: true })).rejects.toBeInstanceOf(NotFoundError);
  });
});
