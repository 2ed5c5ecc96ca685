/**
 * `runMany`'s entry: the scheduler and its driver load on a run's first step, so a client that
 * never calls `runMany` never loads them.
 * @module
 */
import type { ForecastListItem, ForecastTask } from '../../../schemas/records/forecasts.js';
import type { RunManyInput, RunManyOptions, RunManyResult } from '../run-many.js';
import type { FlowContext } from '../tracking.js';

/** Loads the driver, then runs. @internal */
export async function* runManyOnDemand(ctx: FlowContext, items: RunManyInput, options: RunManyOptions | undefined): AsyncGenerator<RunManyResult<ForecastListItem | ForecastTask>, void, undefined> {
  const { runMany } = await import('./driver.js');
  yield* runMany(ctx, items, options);
}
