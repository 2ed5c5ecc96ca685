// Compiled by `tsc --noEmit` in `npm test` (never run): each @ts-expect-error is a mistake the types must catch,
// and each plain line is a use they must allow. An unused @ts-expect-error fails the build.
import { expectTypeOf } from 'vitest';
import {
  type FinishedForecastTask,
  ForecastingClient,
  type ForecastTask,
  type ForecastData,
  type Question,
  type QuestionCreateParams,
  type QuestionTemplateCreateParams,
  type WebhookEvent,
} from '../../src/index.js';

declare const client: ForecastingClient;

export async function params(): Promise<void> {
  // A typo in params is a compile error.
  // @ts-expect-error resolutionCriterea is not a field
  await client.questions.create({ type: 'binary', title: 'Will it rain?', resolutionCriterea: 'x' });
  // @ts-expect-error limt is not a query field
  await client.questions.list({ limt: 5 });
  // @ts-expect-error runMod is not a field
  await client.forecasts.create({ questionId: 'q', runMod: 'light' });

  // A wrong enum value and a wrong primitive are compile errors.
  // @ts-expect-error 'fast' is not a run mode
  await client.forecasts.create({ questionId: 'q', runMode: 'fast' });
  // @ts-expect-error 'log' is not a scale type
  await client.questions.create({ type: 'numeric', title: 't', lowerBound: 1, upperBound: 2, scaleType: 'log' });
  // @ts-expect-error a title is text
  await client.questions.create({ type: 'binary', title: 42 });
  // @ts-expect-error lowerBound is a number
  await client.questions.create({ type: 'numeric', title: 't', lowerBound: '1', upperBound: 2, scaleType: 'linear' });
  // @ts-expect-error binary questions take no options
  await client.questions.create({ type: 'binary', title: 't', options: ['a', 'b'] });
  // @ts-expect-error a numeric question needs its bounds
  await client.questions.create({ type: 'numeric', title: 't', scaleType: 'linear' });
  // @ts-expect-error a question needs a title
  await client.questions.create({ type: 'binary' });
  // @ts-expect-error the type of a template question comes from the template
  await client.questions.create({ templateId: 't1', type: 'binary' });

  // What is right compiles.
  await client.questions.create({ type: 'multiple_choice', title: 'Which?', options: ['a', 'b'] });
  await client.questions.create({ templateId: 't1', templateValues: { city: 'Paris' }, title: 'Override' });
  await client.forecasts.create({ question: { type: 'binary', title: 'Inline?' }, runMode: 'light' });
  await client.webhooks.create({ url: 'https://example.com/hooks', eventKinds: ['forecast.completed'] });
  // @ts-expect-error webhook.test cannot be subscribed to
  await client.webhooks.create({ url: 'https://example.com/hooks', eventKinds: ['webhook.test'] });

  // Templates, connections, sharing.
  const template: QuestionTemplateCreateParams = { scope: 'personal', name: 'n', questionType: 'binary', fields: { title: 'Rain in {city}?' }, blanks: [{ key: 'city' }] };
  await client.questionTemplates.create(template);
  // @ts-expect-error builtin templates are the service's: not a scope to create
  await client.questionTemplates.create({ ...template, scope: 'builtin' });
  // @ts-expect-error blank is not a field (blanks is)
  await client.questionTemplates.create({ ...template, blank: [] });
  // @ts-expect-error a file cannot be ignored
  await client.questionTemplates.files.update('t', 'f', { treatment: 'ignore' });
  await client.questions.create({ templateId: 't1', templateValues: { metric: 'Brent' }, lowerBound: 40, upperBound: 140 });
  await client.connections.create({ scope: 'personal', name: 'n', url: 'https://mcp.example.com', authKind: 'api_key', api_key: 'k' });
  // @ts-expect-error the key's field is api_key, as in the spec
  await client.connections.create({ scope: 'personal', name: 'n', url: 'https://mcp.example.com', authKind: 'api_key', apiKey: 'k' });
  // @ts-expect-error tools switch by name: a map, not a list
  await client.connections.update('c', { tools: ['search'] });
  // @ts-expect-error a share link's label is text
  await client.questions.shareLinks.create('q', { label: 1 });
}

export async function reads(): Promise<void> {
  const question = await client.questions.retrieve('q');
  expectTypeOf(question.sourceTemplate?.templateValues).toEqualTypeOf<Record<string, string> | undefined>();
  const conn = await client.connections.retrieve('c');
  // @ts-expect-error a connection's key is never returned
  void conn.api_key;
  expectTypeOf(conn.hasApiKey).toEqualTypeOf<boolean>();
  // A typo in a read is a compile error.
  // @ts-expect-error titel is not a field
  void question.titel;
  expectTypeOf(question).toEqualTypeOf<Question>();
  expectTypeOf(question.title).toEqualTypeOf<string>();

  // Discriminated narrowing: the bounds follow the type.
  if (question.type === 'numeric') {
    expectTypeOf(question.lowerBound).toEqualTypeOf<number>();
    expectTypeOf(question.scaleType).toExtend<string>();
  } else if (question.type === 'binary') {
    expectTypeOf(question.lowerBound).toEqualTypeOf<null>();
  }

  const task = await client.forecasts.retrieve('t');
  expectTypeOf(task).toEqualTypeOf<ForecastTask>();
  // @ts-expect-error the forecast may be absent until the task is narrowed to completed
  void task.forecast.forecastData;
  if (task.status === 'completed') {
    expectTypeOf(task.forecast.forecastData).toEqualTypeOf<ForecastData>();
    const data = task.forecast.forecastData;
    if (data.questionType === 'binary') expectTypeOf(data.payload.probability).toEqualTypeOf<number>();
    // @ts-expect-error a numeric payload has no probability
    if (data.questionType === 'numeric') void data.payload.probability;
  }
  if (task.status === 'failed') expectTypeOf(task.error.message).toEqualTypeOf<string>();

  // Return types are not any.
  expectTypeOf(question).not.toBeAny();
  expectTypeOf(task).not.toBeAny();
  expectTypeOf(await client.questions.list()).not.toBeAny();
  expectTypeOf((await client.questions.list()).data[0]).toEqualTypeOf<Question | undefined>();
  expectTypeOf(await client.credits.retrieve()).not.toBeAny();
  expectTypeOf(await client.forecasts.waitMany(['t'])).toEqualTypeOf<FinishedForecastTask[]>();
  // A wait gives a final task: a status still running is no case to handle (a newcomer's exhaustive switch).
  const finished = await client.forecasts.wait('t');
  expectTypeOf(finished).toEqualTypeOf<FinishedForecastTask>();
  expectTypeOf(finished.status).toEqualTypeOf<'completed' | 'failed' | 'cancelled'>();
  expectTypeOf(await client.forecasts.createAndWait({ questionId: 'q' })).toEqualTypeOf<FinishedForecastTask>();
  // @ts-expect-error no wait gives a queued task
  if (finished.status === 'queued') void finished;
  // A progress snapshot's statuses are the task's, not any string: a typo is caught.
  void client.forecasts.progress.on('status', (p) => {
    // @ts-expect-error a misspelt status
    if (p.status === 'complted') return;
    // @ts-expect-error no report status is 'done'
    if (p.reportStatus === 'done') return;
  });
  // A forecast body names its question exactly one way (a newcomer's `create({})` compiled, then threw).
  // @ts-expect-error neither questionId nor question
  await client.forecasts.create({ runMode: 'light' });
  // @ts-expect-error both questionId and question
  await client.forecasts.create({ questionId: 'q', question: { type: 'binary', title: 'Will it rain?' } });
  await client.forecasts.create({ question: { type: 'binary', title: 'Will it rain?' }, runMode: 'light' });
  const maybe = 'q' as string | undefined;
  // @ts-expect-error a question id that may be missing
  await client.forecasts.create({ questionId: maybe });
  // A batch item refused because a forecast runs names that task, as the error envelope does.
  const [item] = await client.forecasts.createMany([{ questionId: 'q' }]);
  if (item?.status === 'rejected') expectTypeOf(item.error.activeTaskId).toEqualTypeOf<string | undefined>();
  // A batch item is a forecast body as `create` takes it (its items were typed `unknown`).
  // @ts-expect-error questionID is not a field
  await client.forecasts.createBatch({ items: [{ questionID: 'q' }] });
  // @ts-expect-error 'fast' is not a run mode
  await client.forecasts.createBatch({ items: [{ questionId: 'q', runMode: 'fast' }] });
  await client.forecasts.createBatch({ items: [{ question: { type: 'date', title: 'When?', lowerBound: new Date(), upperBound: 1_900_000_000 } }] });
  expectTypeOf(await client.get('/tags')).toEqualTypeOf<unknown>();
  expectTypeOf<QuestionCreateParams>().not.toBeAny();

  const event = {} as WebhookEvent;
  expectTypeOf(event.type).toEqualTypeOf<string>();
  void client.forecasts.progress.on('done', (p) => expectTypeOf(p.taskId).toEqualTypeOf<string>());
}

// With exactOptionalPropertyTypes (this project's setting), options read from the environment compile as written.
new ForecastingClient({ apiKey: process.env['FORECASTING_API_KEY'], baseURL: process.env['FORECASTING_BASE_URL'] });
