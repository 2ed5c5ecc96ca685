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
