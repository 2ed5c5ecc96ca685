// `npm run demo`: the SDK driving the mock service end to end, over real HTTP on 127.0.0.1.
// Nothing here leaves this machine. Run `npm run build` first (npm run demo does).
import { ForecastingClient, ValidationError, signWebhook, verifyWebhook } from '../dist/index.js';
import { startMockServer } from '../dist/testing/index.js';

const mock = await startMockServer();
const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' });
const step = (text) => console.log(`\n\x1b[1m${text}\x1b[0m`);

try {
  console.log(`Mock Forecasting Service on ${mock.baseURL}`);

  step('1. Create one question of each type');
  const questions = [
    { type: 'binary', title: 'Will it rain in Paris on 1 June 2027?', tags: ['weather'] },
    { type: 'multiple_choice', title: 'Which team wins the 2027 final?', options: ['Lions', 'Tigers', 'Bears'] },
    { type: 'numeric', title: 'Brent crude price on 1 June 2027 (USD)?', lowerBound: 40, upperBound: 140, scaleType: 'linear' },
    { type: 'discrete', title: 'How many orbital launches in May 2027?', lowerBound: 0, upperBound: 120 },
    { type: 'date', title: 'When will the bridge reopen?', lowerBound: 1_780_000_000, upperBound: 1_800_000_000 },
  ];
  for (const body of questions) {
    const q = await client.questions.create(body);
    console.log(`  ${q.type.padEnd(15)} ${q.callsign.padEnd(24)} ${q.title}`);
  }

  step('2. Bad input is refused before anything is sent');
  try {
    await client.questions.create({ type: 'discrete', title: 'Too wide', lowerBound: 0, upperBound: 1000 });
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    console.log(`  ValidationError on "${err.field}": ${err.message}`);
  }

  step('3. Draft a question from a rough idea (saves nothing), then keep it');
  const draft = await client.questions.normalize({ title: 'How many EVs will Norway register in 2027?' });
  console.log(`  drafted a ${draft.question.type} question: ${draft.question.title}`);
  const kept = await client.questions.create(draft.question);
  console.log(`  created ${kept.id}`);

  step('4. A flaky network: the SDK retries a 503 and the question is created once');
  mock.service.faults.add({ operation: 'questions.create', status: 503, retryAfter: 0, times: 2 });
  client.on('retry', (e) => console.log(`  retry ${e.attempt} of ${e.operation} after ${e.status} (${e.error}), waiting ${e.delayMs} ms`));
  const resilient = await client.questions.create({ type: 'binary', title: 'Will the launch happen on time?' });
  console.log(`  created ${resilient.id} after ${mock.service.requests.count({ operation: 'questions.create' }) - questions.length - 1} requests`);

  step('5. Iterate over every question, two per page');
  let n = 0;
  for await (const q of client.questions.list({ limit: 2 })) console.log(`  ${++n}. ${q.title}`);
  console.log(`  (${mock.service.requests.count({ operation: 'questions.list' })} pages fetched)`);

  step('6. Verify a signed webhook call');
  const secret = 'whsec_demo_secret';
  const body = JSON.stringify({ createdAt: new Date().toISOString(), data: { forecastId: null, questionId: kept.id, taskId: crypto.randomUUID() }, id: 'evt', type: 'forecast.started' });
  const signature = await signWebhook(body, secret, { timestamp: Math.floor(Date.now() / 1000) });
  const event = await verifyWebhook(body, { 'x-service-signature': signature }, secret);
  console.log(`  verified ${event.type} for question ${event.data.questionId}`);
  const refused = await verifyWebhook(body.replace('started', 'completed'), { 'x-service-signature': signature }, secret).catch((e) => e);
  console.log(`  a tampered body is refused: ${refused.code}`);

  console.log(`\nDone: ${mock.service.requests.count()} requests reached the mock service.`);
} finally {
  await mock.close();
}
