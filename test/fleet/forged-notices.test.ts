// Forged "task final" notices on the fleet's channel, on a real redis-server (docs/fleet.md, "Redis is
// a trust boundary"): each one made the wait it named read the task at once, so a flood spent the
// whole fleet's request budget. Now the first notice costs one read; the rest, nothing until the
// service's wait has passed. The mock runs in real time (a running task's Retry-After is 2 minutes),
// so any read after the first is one the notices caused.
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';
import { useRedis } from '../redis/_setup.js';
import { closeCoordinators, coordinatedClient, coordinatorOn, readsOf, subscribed } from './_waits.js';

const redis = useRedis();
afterAll(closeCoordinators);
let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
});

describe('a flood of forged final notices', () => {
  it('costs a waiting client one read of the task, not one per notice', async () => {
    mock = await startMockServer({ timeScale: 1 });
    const prefix = 'forged-flood';
    const options = mockClientOptions(mock);
    const waiter = await coordinatorOn(redis, prefix, mock.apiKey, options.clock);
    const client = coordinatedClient(options, waiter);
    const question = await client.questions.create({ type: 'binary', title: 'Will the flood be read?' });
    const task = await client.forecasts.create({ questionId: question.id, runMode: 'max' });
    const stop = new AbortController();
    const waiting = client.forecasts.wait(task.id, { signal: stop.signal }).catch((err: unknown) => err);
    await subscribed(redis, prefix, 1);
    await vi.waitFor(() => expect(readsOf(mock!.service, task.id)).toBe(1));

    const admin = await redis.client();
    const forged = JSON.stringify({ notices: [{ taskId: task.id, status: 'completed' }], freed: 0 });
    for (let i = 0; i < 100; i++) await admin.publish(`{${prefix}}:events`, forged);
    // The first notice's read comes; then a while for the other 99 to have been heard (they were
    // sent after it), in which no read may follow.
    await vi.waitFor(() => expect(readsOf(mock!.service, task.id)).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(readsOf(mock.service, task.id)).toBe(2);

    stop.abort(new Error('done'));
    expect(await waiting).toEqual(new Error('done'));
  }, 30_000);
});
