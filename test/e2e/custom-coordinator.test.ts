// A custom coordinator whose `maxActive` getter throws (the contract lets a coordinator state its
// cap; a broken one must not break the client): a counted start and `runMany` go on as with a
// coordinator that states no cap, as its other failures leave calls uncoordinated rather than failed.
// The SDK against the mock over HTTP, with `startMockServer()`'s defaults.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastingClient, type Coordinator, type SlotHold } from '../../src/index.js';
import { startMockServer, type MockServer } from '../../src/testing/index.js';

let mock: MockServer;
beforeAll(async () => void (mock = await startMockServer()));
afterAll(() => mock.close());

/** A coordinator that holds what it is asked, and throws when its cap is read. */
function throwingCap(): Coordinator & { holds: number[] } {
  const holds: number[] = [];
  const hold = (count: number): SlotHold => ({ count, bind: async () => {}, release: async () => {} });
  return {
    holds,
    attach: () => {},
    take: async () => {},
    hold: async (count) => (holds.push(count), hold(count)),
    get maxActive(): number {
      throw new Error('the cap is not known yet');
    },
    settle: async () => {},
    watch: () => () => {},
    receiving: () => false,
    stats: () => Promise.reject(new Error('not asked')),
  };
}

describe('a custom coordinator whose maxActive getter throws', () => {
  it('lets a counted start (a batch) through with its hold, and runMany run to the end', async () => {
    const coordinator = throwingCap();
    const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, coordinator, logLevel: 'off' });
    const [a, b, c, d] = await Promise.all(['A', 'B', 'C', 'D'].map((n) => client.questions.create({ type: 'binary', title: `Cap ${n}?` })));
    const batch = await client.forecasts.createBatch({ items: [{ questionId: a!.id }, { questionId: b!.id }] });
    expect(batch.items.map((i) => i.status)).toEqual(['accepted', 'accepted']);
    expect(coordinator.holds).toContain(2);
    const done = [];
    for await (const r of client.forecasts.runMany([{ questionId: c!.id }, { questionId: d!.id }], { maxActive: 2 })) done.push(r.status === 'rejected' ? r.error.message : r.status);
    expect(done).toEqual(['completed', 'completed']);
  });
});
