// A wait rides out failures until its own timeout, without end when it has none: a failure that
// lasts is said at warn (after 5, 10, 20, … attempts), with what to do, so a wait stuck on a service
// that answers 503 is never silent (a newcomer's test hung on one, with nothing logged).
import { afterAll, beforeAll, expect, it } from 'vitest';
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
