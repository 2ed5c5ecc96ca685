// Type-level checks of the forecast API (compiled by `tsc --noEmit`, never run).
import { ForecastingClient } from '../src/client.js';
import type { ForecastData, ForecastListItem, ForecastTask } from '../src/index.js';

const c = new ForecastingClient({ apiKey: 'x', baseURL: 'https://a' });

export async function forecastTypes(): Promise<unknown[]> {
  const task: ForecastTask = await c.forecasts.createAndWait({ questionId: 'q', runMode: 'light' }, { timeout: 1000 });
  const data: ForecastData | undefined = task.forecast?.forecastData;
  // @ts-expect-error `probability` exists only once the data is narrowed to binary
  data?.payload.probability;
  if (data?.questionType === 'binary') data.payload.probability.toFixed(2);
  if (data?.questionType === 'multiple_choice') Object.values(data.payload.probabilities);
  if (data?.questionType === 'numeric' || data?.questionType === 'date') data.payload.percentiles.p50.toFixed(0);
  if (data?.questionType === 'discrete') data.payload.nominal_values.at(0);
  // @ts-expect-error exactly one of questionId or question is checked at run time, but runMode is an enum
  await c.forecasts.create({ questionId: 'q', runMode: 'ultra' });
  const items: ForecastListItem[] = await c.forecasts.waitMany(['a'], { full: false });
  const full: ForecastTask[] = await c.forecasts.waitMany(['a']);
  await c.questions.forecasts.create('q', { presetId: 'none' });
  await c.questions.schedule.update('q', { intervalCount: 3, intervalUnit: 'hours' });
  const deleted: void = await c.questions.watch.delete('q');
  c.forecasts.progress.on('done', (p) => p.status.length);
  // runMany: a union discriminated on `status`; `task` is a list item, or the full record with `full: true`.
  for await (const r of c.forecasts.runMany([{ questionId: 'q' }], { runId: 'r' })) {
    // @ts-expect-error `task` exists only once the result is narrowed to a finished forecast
    r.task;
    if (r.status === 'completed') r.task.forecastData?.questionType;
    if (r.status === 'rejected') r.error.message.length;
    if (r.status === 'not_started') r.reason satisfies 'insufficient_credits';
  }
  for await (const r of c.forecasts.runMany((async function* () { yield { questionId: 'q' }; })(), { full: true })) {
    if (r.status === 'failed') r.task.error?.message;
  }
  // @ts-expect-error items are POST /forecasts bodies, checked exactly
  c.forecasts.runMany([{ questionId: 'q', priority: 1 }]);
  return [items, full, deleted, (await c.credits.retrieve()).balance, (await c.forecasts.chat.create('t', { message: 'm' })).messages];
}
