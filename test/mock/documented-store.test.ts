// docs/testing.md, "The store and test hooks": the store holds the mock's records, not the API's
// answers. A question's record carries the question under `question`; a forecast's is the mock's
// state of the task.
import { describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { ManualClock, startMockServer } from '../../src/testing/index.js';

describe('service.store, as documented', () => {
  it('keeps a question as { id, question, ownerId, organizationId, presetId } and a forecast as the mock’s state of the task', async () => {
    const mock = await startMockServer({ clock: new ManualClock() });
    try {
      const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' });
      const created = await client.questions.create({ type: 'binary', title: 'Is the store a record?' });
      const records = mock.service.store.questions.list().filter((r) => r.question.title === 'Is the store a record?');
      expect(records).toHaveLength(1);
      expect(Object.keys(records[0]!).sort()).toEqual(['id', 'organizationId', 'ownerId', 'presetId', 'question'].sort());
      expect(records[0]!.question).toEqual(created);
      const task = await client.forecasts.create({ questionId: created.id, runMode: 'light' });
      const state = mock.service.store.forecasts.get(task.id)!;
      expect(state).toMatchObject({ id: task.id, questionId: created.id, status: 'queued', runMode: 'light' });
      expect(Array.isArray(state.subforecasts)).toBe(true);
      // Not the answer's shape: the task's `type` is the API's, not the record's.
      expect(task.type).toBe('forecast_task');
      expect('type' in state).toBe(false);
    } finally {
      await mock.close();
    }
  });
});
