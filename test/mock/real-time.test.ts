// Waits the mock states to clients (`Retry-After`) are real seconds, whatever its clock's speed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientClockFor, createMockService, ManualClock, ScaledClock } from '../../src/testing/index.js';
import { binary, call, createQuestion } from './_helpers.js';

/** A scaled clock on a fake real-time source, so a test moves real time by hand. */
function fakeScaled(timeScale: number) {
  let real = 1_800_000_000_000;
  const clock = new ScaledClock({ timeScale, source: () => real });
  return { clock, passReal: (ms: number) => void (real += ms) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('clock.realSeconds', () => {
  it('is whole seconds, rounded up, at least 1, on a manual clock', () => {
    const clock = new ManualClock();
    expect([clock.realSeconds(15_000), clock.realSeconds(1_001), clock.realSeconds(1), clock.realSeconds(0)]).toEqual([15, 2, 1, 1]);
  });

  it('divides by the scale on a scaled clock', () => {
    const { clock } = fakeScaled(600);
    expect([clock.realSeconds(120_000), clock.realSeconds(3_600_000), clock.realSeconds(3_600_001)]).toEqual([1, 6, 7]);
  });
});

describe('Retry-After on a clock faster than real time', () => {
  it('tells a task read to wait its real share of 15 s queued and 120 s running', async () => {
    const { clock } = fakeScaled(10);
    const service = createMockService({ clock });
    const question = await createQuestion(service, binary());
    const task = await call<{ id: string }>(service, 'POST', '/forecasts', { body: { questionId: question.id, runMode: 'standard' } });
    let read = await call<{ status: string }>(service, 'GET', `/forecasts/${task.body.id}`);
    expect([read.body.status, read.headers.get('retry-after')]).toEqual(['queued', '2']);
    clock.advance(5 * 60_000);
    read = await call<{ status: string }>(service, 'GET', `/forecasts/${task.body.id}`);
    expect([read.body.status, read.headers.get('retry-after')]).toEqual(['running_subforecasts', '12']);
  });

  it('tells a rate-limited client to wait the real time until the window frees', async () => {
    const { clock } = fakeScaled(10);
    const service = createMockService({ clock, rateLimit: { requestsPerMinute: 1 } });
    expect((await call(service, 'GET', '/questions')).status).toBe(200);
    const refused = await call<{ error: { message: string } }>(service, 'GET', '/questions');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('6');
    expect(refused.body.error.message).toMatch(/retry after 6 s/);
  });

  it('keeps the drafting limit in real seconds too', async () => {
    const { clock } = fakeScaled(60);
    const service = createMockService({ clock });
    const draft = { title: 'Will it rain in Paris tomorrow' };
    for (let i = 0; i < 20; i++) expect((await call(service, 'POST', '/questions/normalize', { body: draft })).status).toBe(200);
    const refused = await call(service, 'POST', '/questions/normalize', { body: draft });
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '1']);
  });

  it('leaves a fault rule’s retryAfter as written', async () => {
    const { clock } = fakeScaled(600);
    const service = createMockService({ clock, faults: [{ operation: 'questions.list', status: 503, retryAfter: 30 }] });
    expect((await call(service, 'GET', '/questions')).headers.get('retry-after')).toBe('30');
  });
});

describe('clientClockFor a scaled clock', () => {
  it('is plain real time: now() is the real time and sleep(ms) sleeps ms, whatever timers a test fakes', async () => {
    const scaled = new ScaledClock({ timeScale: 1000, startMs: Date.UTC(2030, 0, 1) });
    const time = clientClockFor(scaled);
    expect(Math.abs(time.now() - Date.now())).toBeLessThan(1_000);
    // Fake timers (see fake-timers.test.ts) move neither its time nor its sleeps.
    vi.useFakeTimers({ now: Date.UTC(2020, 0, 1) });
    expect(time.now()).toBeGreaterThan(Date.UTC(2024, 0, 1));
    const before = time.now();
    await time.sleep(30);
    expect(time.now() - before).toBeGreaterThanOrEqual(25);
    scaled.stop();
  });

  it("carries the scale as serviceTimeScale: the service's minute is a 1000th of a real one", () => {
    const scaled = new ScaledClock({ timeScale: 1000 });
    expect(clientClockFor(scaled).serviceTimeScale).toBe(1000);
    expect(clientClockFor(new ManualClock()).serviceTimeScale).toBeUndefined();
    scaled.stop();
  });

  it("takes a mock's timeScale alone, for a client of a mock served by another process", () => {
    const time = clientClockFor(600);
    expect([time.serviceTimeScale, time.simulated, Math.abs(time.now() - Date.now()) < 1_000]).toEqual([600, undefined, true]);
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => clientClockFor(bad)).toThrow(`clientClockFor: a mock's timeScale must be a positive number, got ${String(bad)}`);
  });
});
