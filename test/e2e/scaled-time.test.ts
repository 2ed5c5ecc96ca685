// A mock whose clock runs fast, and a client that knows nothing of it: the client's ordinary waits
// (Retry-After, in real seconds) are all it takes.
import { afterEach, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { startMockServer, type MockServer } from '../../src/testing/index.js';

let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('a scaled mock with a default client', () => {
  it('waits out a light forecast in about a second at timeScale 3600, told Retry-After: 1', async () => {
    mock = await startMockServer({ timeScale: 3600 });
    const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' });
    const question = await client.questions.create({ type: 'binary', title: 'Will the scaled clock help?' });
    const task = await client.forecasts.create({ questionId: question.id, runMode: 'light' });
    const read = await client.forecasts.retrieve(task.id).withResponse();
    // Queued for 15 mock-seconds (4 real ms), then running for 120 (33 ms): either way, 1 real second.
    expect(['queued', 'running_subforecasts']).toContain(read.data.status);
    expect(read.response.headers.get('retry-after')).toBe('1');

    const started = performance.now();
    const done = await client.forecasts.wait(task.id, { timeout: 5_000 });
    expect(done.status).toBe('completed');
    expect(performance.now() - started).toBeLessThan(2_500);
  });

  it('waits out three light forecasts with waitMany, and a report with waitForReport, in seconds', async () => {
    mock = await startMockServer({ timeScale: 3600 });
    const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' });
    const questions = await Promise.all([1, 2, 3].map((n) => client.questions.create({ type: 'binary', title: `Will waitMany keep up, part ${n}?` })));
    const tasks = await Promise.all(questions.map((q) => client.forecasts.create({ questionId: q.id, runMode: 'light' })));

    const started = performance.now();
    const done = await client.forecasts.waitMany(tasks.map((t) => t.id), { timeout: 10_000, waitForReport: true });
    expect(done.map((t) => [t.status, t.forecast?.report?.status])).toEqual(Array(3).fill(['completed', 'completed']));
    expect(performance.now() - started).toBeLessThan(5_000);

    const q = await client.questions.create({ type: 'binary', title: 'Will the report be waited for?' });
    const one = await client.forecasts.createAndWait({ questionId: q.id, runMode: 'light' }, { timeout: 10_000, waitForReport: true });
    expect(one.forecast?.report?.status).toBe('completed');
  });
});
