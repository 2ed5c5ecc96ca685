// Date bounds are whole Unix seconds. A number that can only be milliseconds (Date.UTC, Date.now,
// getTime) is refused before sending, naming the bound; a Date is sent as seconds.
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { DATE_BOUND_MILLISECONDS_FROM } from '../../src/schemas/questions.js';
import { BASE, makeClient, question, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();

const JAN_2027 = Date.UTC(2027, 0, 1); // milliseconds
const JAN_2028 = Date.UTC(2028, 0, 1);
const date = (lowerBound: unknown, upperBound: unknown) => ({ type: 'date', title: 'When will the bridge reopen?', lowerBound, upperBound }) as never;

async function refusal(promise: PromiseLike<unknown>): Promise<ValidationError> {
  const err = await Promise.resolve(promise).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ValidationError);
  expect(seen).toHaveLength(0);
  return err as ValidationError;
}

/** Echoes the body it got, as the question created. */
function echoCreate() {
  server.use(http.post(`${BASE}/questions`, async ({ request }) => HttpResponse.json(question('q1', (await request.json()) as Record<string, unknown>), { status: 201 })));
}

describe('date bounds in milliseconds', () => {
  it('refuses Date.UTC() bounds on create, naming the field, sending nothing', async () => {
    const err = await refusal(makeClient().questions.create(date(JAN_2027, JAN_2028)));
    expect(err.field).toBe('lowerBound');
    expect(err.message).toContain('lowerBound: looks like milliseconds; date bounds are Unix seconds');
    expect(err.issues.map((i) => i.field)).toEqual(['lowerBound', 'upperBound']);
  });

  it('refuses them in an inline question of forecasts.create, naming question.upperBound', async () => {
    const err = await refusal(makeClient().forecasts.create({ question: date(1_798_761_600, JAN_2028) }));
    expect(err.field).toBe('question.upperBound');
  });

  it('refuses them in a date template’s fields, naming fields.lowerBound', async () => {
    const err = await refusal(
      makeClient().questionTemplates.create({
        scope: 'personal',
        name: 'Bridge',
        questionType: 'date',
        fields: { title: 'When will {bridge} reopen?', lowerBound: JAN_2027, upperBound: 1_830_297_600 },
        blanks: [{ key: 'bridge' }],
      }),
    );
    expect(err.field).toBe('fields.lowerBound');
    expect(err.message).toContain('looks like milliseconds');
  });

  it('takes every plausible date in seconds: the far past, the year 5000, just under the threshold', async () => {
    echoCreate();
    const client = makeClient();
    const year5000 = Date.UTC(5000, 0, 1) / 1000;
    for (const [lo, hi] of [[-2_208_988_800, 0], [1_798_761_600, year5000], [year5000, DATE_BOUND_MILLISECONDS_FROM - 1], [-(DATE_BOUND_MILLISECONDS_FROM - 1), 0]]) {
      await expect(client.questions.create(date(lo, hi))).resolves.toMatchObject({ lowerBound: lo, upperBound: hi });
    }
    expect(DATE_BOUND_MILLISECONDS_FROM).toBe(1e11);
  });

  it('refuses from the threshold on, either sign', async () => {
    await refusal(makeClient().questions.create(date(-DATE_BOUND_MILLISECONDS_FROM, 0)));
    await refusal(makeClient().questions.create(date(0, DATE_BOUND_MILLISECONDS_FROM)));
  });

  it('leaves a big number of a numeric question alone', async () => {
    echoCreate();
    const params = { type: 'numeric', title: 'US GDP in 2030 (USD)?', lowerBound: 2e13, upperBound: 5e13, scaleType: 'linear' } as const;
    await expect(makeClient().questions.create(params)).resolves.toMatchObject({ lowerBound: 2e13 });
  });
});

describe('date bounds as Date objects', () => {
  it('sends a Date as whole Unix seconds (rounded down)', async () => {
    echoCreate();
    await makeClient().questions.create({ type: 'date', title: 'When?', lowerBound: new Date(JAN_2027 + 999), upperBound: new Date(JAN_2028) });
    expect(await seen[0]!.json()).toMatchObject({ lowerBound: JAN_2027 / 1000, upperBound: JAN_2028 / 1000 });
  });

  it('sends a Date in an edit as seconds too', async () => {
    server.use(http.patch(`${BASE}/questions/q1`, async ({ request }) => HttpResponse.json(question('q1', (await request.json()) as Record<string, unknown>))));
    await makeClient().questions.update('q1', { upperBound: new Date(JAN_2028) });
    expect(await seen[0]!.json()).toEqual({ upperBound: JAN_2028 / 1000 });
  });

  it('refuses an invalid Date, naming the field', async () => {
    const err = await refusal(makeClient().questions.create({ type: 'date', title: 'When?', lowerBound: new Date('next spring'), upperBound: new Date(JAN_2028) }));
    expect(err.field).toBe('lowerBound');
    expect(err.message).toBe('lowerBound: is an invalid Date');
  });

  it('orders Date bounds like numbers', async () => {
    const err = await refusal(makeClient().questions.create({ type: 'date', title: 'When?', lowerBound: new Date(JAN_2028), upperBound: new Date(JAN_2027) }));
    expect(err.message).toBe('upperBound: must be greater than lowerBound');
  });
});
