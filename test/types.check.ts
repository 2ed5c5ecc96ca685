import { ForecastingClient } from '../src/client.js';
const c = new ForecastingClient({ apiKey: 'x', baseURL: 'https://a' });
async function f() {
  const q = await c.questions.create({ type: 'numeric', title: 't', lowerBound: 1, upperBound: 2, scaleType: 'linear' });
  const t: string = q.type; const id: string = q.id;
  // @ts-expect-error binary takes no options
  await c.questions.create({ type: 'binary', title: 't', options: ['a'] });
  const page = await c.questions.list();
  const first = page.data[0]?.title;
  for await (const x of c.questions.browse({ limit: 3 })) { x.callsign; }
  const { data, response } = await c.questions.retrieve('a').withResponse();
  data.title; response.status;
  await c.questions.create({ templateId: 'x', templateValues: { a: 'b' } });
  return [t, id, first];
}
void f;
