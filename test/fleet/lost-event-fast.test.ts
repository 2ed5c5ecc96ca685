// A coordinated wait whose final event is lost (a receiver seen, the key's webhooks covering every
// final kind) reads again at its safety cadence, coordinatedPollInterval: 10 minutes of the
// service's time. On startMockServer()'s defaults that is a second: the cadence was taken as real
// ms and shortened only by a guess from the mock's rounded Retry-After, so a wait ran 5 s, and a
// createAndWait 40 s, past its task's end.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ForecastingClient, SubscribableEventKind } from '../../src/index.js';
import { mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';
import { useRedis } from '../redis/_setup.js';
import { closeCoordinators, coordinatedClient, coordinatorOn, forwardEvents, receiverSeen, subscribed } from './_waits.js';
import { lateBy } from '../_timing.js';

const redis = useRedis();
afterAll(closeCoordinators);
const mocks: MockServer[] = [];
afterEach(async () => {
  await Promise.all(mocks.splice(0).map((m) => m.close()));
});
const ALL_FINAL: SubscribableEventKind[] = ['forecast.completed', 'forecast.failed', 'forecast.cancelled'];
let fleets = 0;

/** A waiting client and a receiver on the fast mock; the events of the tasks in `lost` never arrive. */
async function fastFleet(lost: Set<string>): Promise<{ mock: MockServer; client: ForecastingClient }> {
  const mock = await startMockServer();
  mocks.push(mock);
  const prefix = `lost-fast-${++fleets}`;
  const options = mockClientOptions(mock);
  const [waiter, receiver] = [await coordinatorOn(redis, prefix, mock.apiKey, options.clock), await coordinatorOn(redis, prefix, mock.apiKey, options.clock)];
  const client = coordinatedClient({ ...options, logLevel: 'off' }, waiter);
  await client.webhooks.create({ url: 'https://hooks.example.com/forecasting', eventKinds: ALL_FINAL });
  await forwardEvents(redis, prefix, mock.service, receiver, lost);
  await receiver.publish({ id: 'evt_hello', type: 'webhook.test', final: false });
  await receiverSeen(waiter);
  await subscribed(redis, prefix, 2);
  return { mock, client };
}

describe('a coordinated wait whose final event is lost, on the fast mock', () => {
  it('forecasts.wait ends within about a second of its task (10 minutes of the mock)', async () => {
    const lost = new Set<string>();
    const { mock, client } = await fastFleet(lost);
    const question = await client.questions.create({ type: 'binary', title: 'Lost event, wait' });
    const task = await client.forecasts.create({ questionId: question.id, runMode: 'light' });
    lost.add(task.id);
    expect((await client.forecasts.wait(task.id)).status).toBe('completed');
    expect(lateBy(mock, task.id)).toBeLessThan(2_500);
  });

  it('createAndWait ends within about a second of its task', async () => {
    const lost = new Set<string>();
    const { mock, client } = await fastFleet(lost);
    const question = await client.questions.create({ type: 'binary', title: 'Lost event, createAndWait' });
    const done = await client.forecasts.createAndWait({ questionId: question.id, runMode: 'light' }, { onCreated: (t) => void lost.add(t.id) });
    expect(done.status).toBe('completed');
    expect(lateBy(mock, done.id)).toBeLessThan(2_500);
  });

  it('waitMany ends within about a second of its task', async () => {
    const lost = new Set<string>();
    const { mock, client } = await fastFleet(lost);
    const question = await client.questions.create({ type: 'binary', title: 'Lost event, waitMany' });
    const task = await client.forecasts.create({ questionId: question.id, runMode: 'standard' });
    lost.add(task.id);
    const [done] = await client.forecasts.waitMany([task.id]);
    expect(done!.status).toBe('completed');
    expect(lateBy(mock, task.id)).toBeLessThan(2_500);
  });
});
