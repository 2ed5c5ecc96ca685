// A test's fake timers (vi.useFakeTimers(), which fakes setImmediate, setTimeout and Date) leave the
// mock's clocks and the client clocks of mockClientOptions / clientClockFor running on real timers.
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { clientClockFor, createMockService, ManualClock, mockClientOptions, ScaledClock, startMockServer } from '../../src/testing/index.js';
import { mockHandlers } from '../../src/testing/msw.js';
import { binary, call } from './_helpers.js';

// Taken before any test fakes them.
const realDateNow = Date.now.bind(Date);

const question = { type: 'binary', title: 'Will it rain in Paris tomorrow?' } as const;

afterEach(() => {
  vi.useRealTimers();
});

describe('vi.useFakeTimers() in the test', () => {
  it('leaves a wait of a mockClientOptions client on a manual clock running', async () => {
    const mock = await startMockServer({ clock: new ManualClock() });
    try {
      vi.useFakeTimers();
      const client = new ForecastingClient(mockClientOptions(mock));
      const q = await client.questions.create(question);
      const task = await client.forecasts.createAndWait({ questionId: q.id, runMode: 'max' }, { timeout: 3 * 3_600_000 });
      expect(task.status).toBe('completed');
    } finally {
      vi.useRealTimers();
      await mock.close();
    }
  }, 5_000);

  it('leaves the default scaled clock and its client running (server started while faked)', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2020, 0, 1));
    const mock = await startMockServer();
    try {
      // Real time, not the faked 2020.
      expect(Math.abs(mock.clock.now() - realDateNow())).toBeLessThan(60_000);
      const client = new ForecastingClient(mockClientOptions(mock));
      const q = await client.questions.create(question);
      // 5 mock-minutes: half a second at 600x, and the SDK's reads a second apart.
      const task = await client.forecasts.createAndWait({ questionId: q.id, runMode: 'light' }, { timeout: 10_000 });
      expect(task.status).toBe('completed');
    } finally {
      vi.useRealTimers();
      await mock.close();
    }
  }, 8_000);

  it('leaves a client of msw handlers on clientClockFor running, retries included', async () => {
    const baseURL = 'https://forecasting.example/api/v1/external';
    const service = createMockService();
    const server = setupServer(...mockHandlers(service, { baseURL }));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      vi.useFakeTimers();
      const client = new ForecastingClient({ apiKey: service.apiKey, baseURL, clock: clientClockFor(service.clock), logLevel: 'off' });
      service.faults.add({ operation: 'questions.create', status: 503, retryAfter: 2 });
      const q = await client.questions.create(question);
      expect(service.requests.count({ operation: 'questions.create' })).toBe(2);
      const task = await client.forecasts.createAndWait({ questionId: q.id, runMode: 'light' }, { timeout: 3_600_000 });
      expect(task.status).toBe('completed');
    } finally {
      vi.useRealTimers();
      server.close();
    }
  }, 5_000);

  it('leaves a clientClockFor(timeScale) clock on real time', async () => {
    vi.useFakeTimers({ now: Date.UTC(2020, 0, 1) });
    const time = clientClockFor(600);
    expect(time.now()).toBeGreaterThan(Date.UTC(2024, 0, 1));
    const before = realDateNow();
    await time.sleep(20);
    expect(realDateNow() - before).toBeGreaterThanOrEqual(15);
  });

  it('runs a scaled clock callback on its real timer', async () => {
    vi.useFakeTimers();
    const clock = new ScaledClock({ timeScale: 1_000 });
    const ran = new Promise<number>((resolve) => clock.schedule(clock.now() + 20_000, () => resolve(clock.now())));
    // 20 mock-seconds: 20 real ms at 1000x, with no fake time advanced.
    await expect(ran).resolves.toBeGreaterThanOrEqual(clock.now());
    clock.stop();
  }, 2_000);

  it('ends a delayMs fault on real time', async () => {
    const service = createMockService({ faults: [{ operation: 'questions.create', delayMs: 20 }] });
    vi.useFakeTimers();
    expect((await call(service, 'POST', '/questions', { body: binary() })).status).toBe(201);
  }, 2_000);

  // A setup file's vi.useFakeTimers() runs before the mock loads: taken then, its timers were the
  // fakes for good, and a test that went back to real timers never saw a forecast end.
  it('takes the real timers even when they are faked as the mock loads', async () => {
    vi.useFakeTimers();
    vi.resetModules();
    const { realSleep, realNow, realSetTimeout } = await import('../../src/testing/real-timers.js');
    const fakeNow = Date.now();
    await realSleep(20);
    await new Promise<void>((resolve) => realSetTimeout(resolve, 5));
    expect(Date.now()).toBe(fakeNow);
    expect(realNow() - realDateNow()).toBeLessThan(1000);
    expect(realNow() - fakeNow).toBeGreaterThanOrEqual(25);
  }, 5_000);
});
