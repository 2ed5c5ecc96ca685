// A seeded mock gives the same forecast numbers in every run; an unseeded one varies, as its ids do.
import { afterEach, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { ManualClock, mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** One run: two questions, the first forecast twice; the numbers each forecast got, and the ids. */
async function run(seed?: string | number) {
  const mock = await startMockServer({ clock: new ManualClock(), ...(seed === undefined ? {} : { seed }) });
  servers.push(mock);
  const client = new ForecastingClient({ ...mockClientOptions(mock), logLevel: 'off' });
  const binary = await client.questions.create({ type: 'binary', title: 'Will the seed hold?' });
  const numeric = await client.questions.create({ type: 'numeric', title: 'How many seeds?', lowerBound: 0, upperBound: 100, scaleType: 'linear' });
  const first = await client.forecasts.createAndWait({ questionId: binary.id, runMode: 'light' });
  const second = await client.forecasts.createAndWait({ questionId: binary.id, runMode: 'light' });
  const third = await client.forecasts.createAndWait({ questionId: numeric.id, runMode: 'light' });
  return {
    numbers: [first, second, third].map((t) => t.forecast?.forecastData),
    ids: [first.id, binary.id],
  };
}

describe('the mock seed', () => {
  it('gives the same numbers for the same seed and requests, with different ids', async () => {
    const a = await run(42);
    const b = await run('42');
    expect(b.numbers).toEqual(a.numbers);
    expect(b.ids).not.toEqual(a.ids);
    // The second forecast of a question is a forecast of its own, not a copy of the first.
    expect(a.numbers[1]).not.toEqual(a.numbers[0]);
  });

  it('gives other numbers for another seed, and varying numbers without one', async () => {
    const a = await run(1);
    const b = await run(2);
    expect(b.numbers[0]).not.toEqual(a.numbers[0]);
    const c = await run();
    const d = await run();
    expect(d.numbers[0]).not.toEqual(c.numbers[0]);
  });
});
