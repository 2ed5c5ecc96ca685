// With validateResponses on, a record of a known status or type must carry that case's fields: the
// branch for values newer than the SDK took any status or type, so a `completed` task without its
// `forecast` passed (and `task.forecast.forecastData` threw a bare TypeError in user code). Values the
// SDK does not know still pass (test/core/open-values.test.ts). Records: the OpenAPI document's own.
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { recorded } from '../../src/openapi-recorded.js';
import { BASE, makeClient, useMswServer } from './helpers.js';

const { server } = useMswServer();
type Json = Record<string, unknown>;

const answers = recorded.operations['GET /forecasts/{task_id}']!.examples.map((x) => x.response.body as Json);
const completed = answers.find((t) => t['status'] === 'completed' && t['forecast'])!;
const question = completed['question'] as Json;

/** What `forecasts.retrieve` (or `questions.retrieve`) makes of `answer`, with validateResponses on. */
async function read(answer: Json, of: 'task' | 'question' = 'task'): Promise<unknown> {
  server.use(http.get(`${BASE}/forecasts/t1`, () => HttpResponse.json(answer)), http.get(`${BASE}/questions/q1`, () => HttpResponse.json(answer)));
  const client = makeClient({ validateResponses: true });
  return (of === 'task' ? client.forecasts.retrieve('t1') : client.questions.retrieve('q1')).catch((e: unknown) => e);
}
const fieldOf = (e: unknown) => (e instanceof ValidationError ? e.field : `no ValidationError: ${JSON.stringify(e)?.slice(0, 80)}`);

describe('a known status or type with validateResponses on', () => {
  it('reads the recorded completed task and its question as they are', async () => {
    expect(await read(completed)).toMatchObject({ status: 'completed' });
    expect(await read(question, 'question')).toMatchObject({ type: question['type'] });
  });

  it('refuses a completed task without its forecast, or a failed one without its error', async () => {
    const { forecast: _f, ...noForecast } = completed;
    expect(fieldOf(await read(noForecast))).toBe('response.forecast');
    expect(fieldOf(await read({ ...completed, forecast: {} }))).toMatch(/^response\.forecast\./);
    expect(fieldOf(await read({ ...noForecast, forecast: null, status: 'failed' }))).toBe('response.error');
  });

  it('refuses a forecast number of a known question type without its payload', async () => {
    const forecast = completed['forecast'] as Json;
    const data = forecast['forecastData'] as Json;
    expect(fieldOf(await read({ ...completed, forecast: { ...forecast, forecastData: { ...data, payload: {} } } }))).toMatch(/^response\.forecast\.forecastData\.payload\./);
  });

  it('refuses a numeric question without bounds', async () => {
    expect(fieldOf(await read({ ...question, type: 'numeric', lowerBound: null, upperBound: null, scaleType: 'linear' }, 'question'))).toMatch(/^response\.(lower|upper)Bound$/);
  });

  it('names every known type for a record with no type at all (it named the first branch\'s only)', async () => {
    const { type: _type, ...untyped } = question;
    const err = await read(untyped, 'question');
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).message).toBe('response.type: is required (one of "binary", "multiple_choice", "numeric", "discrete", "date")');
  });

  // A review of the above: a format newer than the SDK for a known type must pass as a new type does,
  // and a format left out is named with its own type's format, not every type's.
  it('reads a known question type\'s forecast number in a format newer than the SDK, and names the format a known one needs', async () => {
    const forecast = completed['forecast'] as Json;
    const data = forecast['forecastData'] as Json;
    const withData = (d: Json) => ({ ...completed, forecast: { ...forecast, forecastData: d } });
    expect(await read(withData({ ...data, format: 'probability_v2', payload: { p: 0.5 } }))).toMatchObject({ status: 'completed' });
    const { format: _format, ...noFormat } = data;
    const err = await read(withData(noFormat));
    expect((err as ValidationError).message).toBe(`response.forecast.forecastData.format: is required (one of "${String(data['format'])}")`);
  });

  it('still reads an unknown status without a forecast, and an unknown question type', async () => {
    const { forecast: _f, ...noForecast } = completed;
    expect(await read({ ...noForecast, status: 'paused_for_review' })).toMatchObject({ status: 'paused_for_review' });
    expect(await read({ ...question, type: 'ranking' }, 'question')).toMatchObject({ type: 'ranking' });
  });
});
