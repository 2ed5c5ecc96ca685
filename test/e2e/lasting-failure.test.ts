// A wait rides out failures until its own timeout, without end when it has none: a failure that
// lasts is said at warn (after 5, 10, 20, … attempts), with what to do, so a wait stuck on a service
// that answers 503 is never silent (a newcomer's test hung on one, with nothing logged).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ForecastingClient, type Logger } from '../../src/index.js';
import { ManualClock, mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';

let mock: MockServer;
let questionId: string;
const warned: string[] = [];
const logger: Logger = { debug: () => undefined, info: () => undefined, warn: (m) => void warned.push(m), error: () => undefined };
const client = () => new ForecastingClient({ ...mockClientOptions(mock), logger });

beforeAll(async () => {
  mock = await startMockServer({ clock: new ManualClock() });
  questionId = (await client().questions.create({ type: 'binary', title: 'Will it rain in Paris on 1 June 2027?' })).id;
});
afterAll(() => mock.close());

it('says at warn, after 5 and 10 failed attempts, that a wait with no timeout goes on', async () => {
  warned.length = 0;
  mock.service.faults.add({ operation: 'forecasts.create', status: 503, times: 12 });
  const task = await client().forecasts.createAndWait({ questionId, runMode: 'light' });
  expect(task.status).toBe('completed');
  expect(warned).toEqual([
    expect.stringMatching(/^\[forecasting-sdk\] POST \/forecasts failed \(503\); retry 5 in \d+ ms; a wait retries until its timeout, and this one has none: give it a `timeout` to bound it$/),
    expect.stringMatching(/retry 10 in \d+ ms; a wait retries until its timeout, and this one has none/),
  ]);
});

it('leaves out the advice for a wait that has a timeout', async () => {
  warned.length = 0;
  mock.service.faults.add({ operation: 'forecasts.create', status: 503, times: 6 });
  await client().forecasts.createAndWait({ questionId, runMode: 'light' }, { timeout: 7_200_000 });
  expect(warned).toEqual([expect.stringMatching(/retry 5 in \d+ ms; a wait retries until its timeout$/)]);
});

it('keeps a request\'s own few retries at info', async () => {
  warned.length = 0;
  mock.service.faults.add({ operation: 'credits.retrieve', status: 503, times: 5 });
  await client().credits.retrieve({ maxRetries: 5 });
  expect(warned).toEqual([]);
});

describe.each([
  ['a server closed for good', async (m: MockServer) => void (await m.close())],
  ['a fault without end', async (m: MockServer) => void m.service.faults.add({ operation: 'forecasts.retrieve', status: 503, times: Infinity })],
])('on a manual clock, a wait with no timeout against %s', (_, fail) => {
  it('slows to real time after 30 failed requests in a row, and still ends the moment it is aborted', async () => {
    const own = await startMockServer({ clock: new ManualClock() });
    const quiet = new ForecastingClient({ ...mockClientOptions(own), logLevel: 'off' });
    const q = await quiet.questions.create({ type: 'binary', title: 'Will it rain in Paris on 1 June 2027?' });
    const task = await quiet.forecasts.create({ questionId: q.id, runMode: 'light' });
    await fail(own);
    const sent: number[] = [];
    quiet.on('request', () => void sent.push(performance.now()));
    const stop = new AbortController();
    const waiting = quiet.forecasts.wait(task.id, { signal: stop.signal });
    await vi.waitFor(() => expect(sent.length).toBeGreaterThanOrEqual(39), { timeout: 10_000, interval: 20 });
    // Attempts 32 to 39 each waited 1, 2, … 128 ms of real time first: 255 ms at least. Without the
    // slowing the loopback answers them all within a few milliseconds.
    expect(sent[38]! - sent[30]!).toBeGreaterThanOrEqual(255);
    stop.abort(new Error('stopped by the test'));
    await expect(waiting).rejects.toThrow('stopped by the test');
    const after = sent.length;
    await own.close().catch(() => undefined);
    expect(sent.length).toBe(after);
  });
});

// An attacker's review: the real-time wait held the client busy, and the clock's driver, with a
// second wait asleep on it, looked at it again and again at once: a core at 99 % for two waits.
it('keeps no core busy with two waits against a server closed for good', async () => {
  const own = await startMockServer({ clock: new ManualClock() });
  const quiet = new ForecastingClient({ ...mockClientOptions(own), logLevel: 'off' });
  const tasks = [];
  for (const title of ['Will it rain in Paris on 1 June 2027?', 'Will it rain in Lima on 1 June 2027?']) {
    const q = await quiet.questions.create({ type: 'binary', title });
    tasks.push(await quiet.forecasts.create({ questionId: q.id, runMode: 'light' }));
  }
  await own.close();
  let sent = 0;
  quiet.on('request', () => void sent++);
  const stop = new AbortController();
  const waits = tasks.map((t) => quiet.forecasts.wait(t.id, { signal: stop.signal }).catch(() => undefined));
  // Each wait past its 30 fast tries and 9 slowed ones (1 to 256 ms): the next waits 512 ms, then 1 s.
  await vi.waitFor(() => expect(sent).toBeGreaterThanOrEqual(2 * 40), { timeout: 15_000, interval: 50 });
  const before = process.cpuUsage();
  const started = performance.now();
  await new Promise((r) => setTimeout(r, 1_000));
  const { user, system } = process.cpuUsage(before);
  const busy = (user + system) / 1000 / (performance.now() - started);
  stop.abort();
  await Promise.all(waits);
  expect(busy).toBeLessThan(0.3);
});

// The same review: any answer under 500 reset the count, so another call answered every few
// milliseconds kept a failing wait at full speed.
it('counts the failures of each address apart: another call\'s answers do not speed a failing wait up', async () => {
  const own = await startMockServer({ clock: new ManualClock() });
  const quiet = new ForecastingClient({ ...mockClientOptions(own), logLevel: 'off' });
  const q = await quiet.questions.create({ type: 'binary', title: 'Will it rain in Paris on 1 June 2027?' });
  const task = await quiet.forecasts.create({ questionId: q.id, runMode: 'light' });
  own.service.faults.add({ operation: 'forecasts.retrieve', status: 503, times: Infinity });
  const reads: number[] = [];
  quiet.on('request', (e) => void (e.path.startsWith('/forecasts/') && reads.push(performance.now())));
  const stop = new AbortController();
  const waiting = quiet.forecasts.wait(task.id, { signal: stop.signal }).catch(() => undefined);
  let answered = 0;
  const other = (async () => {
    while (!stop.signal.aborted) {
      await quiet.questions.retrieve(q.id);
      answered++;
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  await vi.waitFor(() => expect(reads.length).toBeGreaterThanOrEqual(39), { timeout: 10_000, interval: 20 });
  stop.abort();
  await Promise.all([waiting, other]);
  expect(answered).toBeGreaterThan(10);
  expect(reads[38]! - reads[30]!).toBeGreaterThanOrEqual(255);
});

// On a scaled clock (startMockServer's default) the client's own backoff already waits real time:
// no real-time wait is added on top, however long a failure lasts.
it('adds no real-time wait on a scaled clock, where the backoff already waits', async () => {
  const own = await startMockServer({ timeScale: 600 });
  let calls = 0;
  const options = mockClientOptions(own);
  own.service.faults.add({ operation: 'credits.retrieve', status: 503, times: Infinity });
  const counted = new ForecastingClient({ ...options, logLevel: 'off', maxRetries: 0 });
  counted.on('request', () => void calls++);
  const started = performance.now();
  for (let i = 0; i < 40; i++) await counted.credits.retrieve().catch(() => undefined);
  expect(calls).toBe(40);
  // Past 30 failures a manual clock's client would wait 1 + 2 + … + 512 ms (1 s) more.
  expect(performance.now() - started).toBeLessThan(900);
  await own.close();
});
