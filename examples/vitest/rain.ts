// A user's own code, tested against the mock service in rain.test.ts (over HTTP) and
// rain.msw.test.ts (inside fetch, with msw). Run them with `npx vitest --config examples/vitest/vitest.config.ts`.
import { ForecastingClient, ForecastAlreadyRunningError } from 'forecasting-sdk';

/** The chance of rain in `city` tomorrow, from a light forecast on a question made for it. */
export async function chanceOfRain(client: ForecastingClient, city: string): Promise<number> {
  const question = await client.questions.create({ type: 'binary', title: `Will it rain in ${city} tomorrow?`, tags: ['weather'] });
  return forecastChance(client, question.id);
}

/** Forecasts a binary question and answers its probability; a forecast already running is waited for instead. */
export async function forecastChance(client: ForecastingClient, questionId: string): Promise<number> {
  let taskId: string;
  try {
    taskId = (await client.forecasts.create({ questionId, runMode: 'light' })).id;
  } catch (err) {
    if (!(err instanceof ForecastAlreadyRunningError) || !err.activeTaskId) throw err;
    taskId = err.activeTaskId;
  }
  const task = await client.forecasts.wait(taskId);
  if (task.status !== 'completed') throw new Error(`The forecast ended ${task.status}: ${task.error?.message ?? 'no reason given'}`);
  const data = task.forecast.forecastData;
  if (data.questionType !== 'binary') throw new Error(`Expected a binary forecast, got ${data.questionType}`);
  return data.payload.probability;
}
