// Type-level checks of the long waits' options (compiled by `tsc --noEmit`, never run).
import { expectTypeOf } from 'vitest';
import { ForecastingClient } from '../../src/client.js';
import type { CreateAndWaitOptions, FinishedForecastTask, ForecastListItem, ForecastTask, RunManyOptions, RunManyResult, WaitManyOptions } from '../../src/index.js';

const client = new ForecastingClient({ apiKey: 'x', baseURL: 'https://a' });

export async function flowTypes(): Promise<void> {
  // An options object typed with the exported RunManyOptions, as its own doc example builds one.
  const controller = new AbortController();
  const options: RunManyOptions = { runId: 'nightly-2027-06-01', maxActive: 50, signal: controller.signal, cancelOnAbort: true, onProgress: (p) => p.counts.completed };
  const run = client.forecasts.runMany([{ questionId: 'q' }], options);
  expectTypeOf(run).toEqualTypeOf<AsyncGenerator<RunManyResult<ForecastListItem | ForecastTask>, void, undefined>>();
  // The literal forms keep their precise types.
  expectTypeOf(client.forecasts.runMany([{ questionId: 'q' }], { full: true })).toEqualTypeOf<AsyncGenerator<RunManyResult<ForecastTask>, void, undefined>>();
  expectTypeOf(client.forecasts.runMany([{ questionId: 'q' }])).toEqualTypeOf<AsyncGenerator<RunManyResult, void, undefined>>();

  // The same for waitMany and WaitManyOptions.
  const waitOptions: WaitManyOptions = { timeout: 60_000, waitForReport: true };
  expectTypeOf(await client.forecasts.waitMany(['t'], waitOptions)).toEqualTypeOf<Array<FinishedForecastTask | ForecastListItem>>();

  // createAndWait's hook gets the task once it exists.
  const created: CreateAndWaitOptions = { onCreated: (task) => expectTypeOf(task).toEqualTypeOf<ForecastTask>() };
  await client.forecasts.createAndWait({ questionId: 'q' }, created);

  // Errors that end a wait say which tasks it waited for.
  const err = new Error() as import('../../src/index.js').ForecastingError;
  expectTypeOf(err.taskId).toEqualTypeOf<string | undefined>();
  expectTypeOf(err.taskIds).toEqualTypeOf<string[] | undefined>();
}

export async function draftTypes(): Promise<void> {
  // A drafted question goes to create, forecasts.create and revise as it is, with no cast.
  const { question } = await client.questions.normalize({ title: 'bitcoin above 100k by June 2027?' });
  if (question) {
    await client.questions.create(question);
    await client.forecasts.create({ question });
    await client.questions.revise({ question, guidance: 'Resolve on the Coinbase close.' });
    // Narrowed on its type, a draft has that type's fields.
    if (question.type === 'numeric') expectTypeOf(question.lowerBound).toEqualTypeOf<number>();
  }
}
