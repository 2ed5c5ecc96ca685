// `npm run demo`: the SDK driving the mock service end to end, over real HTTP on 127.0.0.1.
// Nothing here leaves this machine. Run `npm run build` first (npm run demo does): `forecasting-sdk` resolves to this repository's build.
import { ForecastingClient, ValidationError, signWebhook, verifyWebhook } from 'forecasting-sdk';
import { GENERATION_MS, ManualClock, mockClientOptions, startMockServer } from 'forecasting-sdk/testing';

// The mock runs on a manual clock that the client's waits move: each wait jumps the mock's time to
// when the client would read again, so the forecasts' minutes pass in milliseconds.
const mock = await startMockServer({ clock: new ManualClock() });
const client = new ForecastingClient({ ...mockClientOptions(mock), logLevel: 'off' });
// Escape codes (bold headings, a bar redrawn in place) only for a person at a terminal: with
// NO_COLOR set, or stdout a pipe or a file, it prints plain text.
const plain = !process.stdout.isTTY || Boolean(process.env.NO_COLOR);
const step = (text) => console.log(plain ? `\n${text}` : `\n\x1b[1m${text}\x1b[0m`);

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

  step('6. Forecast two questions and wait, with live progress');
  const [rain, brent] = await Promise.all([
    client.questions.create({ type: 'binary', title: 'Will the Seine flood in Paris before 2028?' }),
    client.questions.create({ type: 'numeric', title: 'Brent crude price on 1 June 2028 (USD)?', lowerBound: 40, upperBound: 140, scaleType: 'linear' }),
  ]);
  const started = await client.forecasts.createMany([
    { questionId: rain.id, runMode: 'light' },
    { questionId: brent.id, runMode: 'moderate' },
  ]);
  const taskIds = started.map((r) => r.taskId);
  const progress = new Map(taskIds.map((id) => [id, '']));
  const bar = (p) => {
    const planned = p.plannedSubforecastCount ?? 0;
    const done = p.completedSubforecastCount ?? 0;
    const filled = planned ? Math.round((done / planned) * 20) : 0;
    return `[${'#'.repeat(filled)}${'-'.repeat(20 - filled)}] ${done}/${planned || '?'} ${p.status}`;
  };
  const live = !plain;
  const render = () => process.stdout.write(`\r  ${[...progress.values()].join('   ')}\x1b[K`);
  client.forecasts.progress.on('progress', (p) => {
    progress.set(p.taskId, bar(p));
    if (live) render();
  });
  // Plain: one line per status change instead of a redrawn bar.
  if (!live) client.forecasts.progress.on('status', (p) => console.log(`  ${p.taskId.slice(0, 8)} ${p.status}`));
  const tasks = await client.forecasts.waitMany(taskIds, { waitForReport: true });
  if (live) process.stdout.write('\n');
  for (const task of tasks) {
    const data = task.forecast?.forecastData;
    let answer = task.status;
    if (data?.questionType === 'binary') answer = `${Math.round(data.payload.probability * 100)}% YES`;
    if (data?.questionType === 'numeric') answer = `median ${data.payload.percentiles.p50.toFixed(1)} (80% between ${data.payload.percentiles.p10.toFixed(1)} and ${data.payload.percentiles.p90.toFixed(1)})`;
    console.log(`  ${task.question.title}\n    answer: ${answer}\n    report: ${(task.forecast?.report?.short ?? '(not written)').slice(0, 160)}…`);
  }
  const credits = await client.credits.retrieve();
  console.log(`  credits left: ${credits.balance}`);

  step('7. Verify a signed webhook call');
  const secret = 'whsec_demo_secret';
  const body = JSON.stringify({ createdAt: new Date().toISOString(), data: { forecastId: null, questionId: kept.id, taskId: crypto.randomUUID() }, id: 'evt', type: 'forecast.started' });
  const signature = await signWebhook(body, secret, { timestamp: Math.floor(Date.now() / 1000) });
  const event = await verifyWebhook(body, { 'x-service-signature': signature }, secret);
  console.log(`  verified ${event.type} for question ${event.data.questionId}`);
  const refused = await verifyWebhook(body.replace('started', 'completed'), { 'x-service-signature': signature }, secret).catch((e) => e);
  console.log(`  a tampered body is refused: ${refused.code}`);

  step('8. A decision: drafted questions, a priced batch of forecasts, a summary');
  client.forecasts.progress.removeAllListeners(); // the progress lines of step 6
  const decision = await client.decisions.create({ title: 'Where do we open the next office?', options: ['Lisbon', 'Berlin'] });
  mock.clock.advance(GENERATION_MS); // the mock's model drafts questions for a minute of its time
  const board = await client.decisions.drafts.keep(decision.id);
  console.log(`  kept ${board.nodes.length} drafted questions for "${decision.title}"`);
  const priced = await client.decisions.forecasts.estimateAndStart(decision.id, { runMode: 'light' }, {
    approve: (estimate) => {
      console.log(`  estimate: ${estimate.items.length} forecasts for ${estimate.totalCredits} credits, approved`);
      return estimate.totalCredits <= estimate.balance;
    },
  });
  if (!priced.approved) throw new Error('the estimate was declined');
  await client.forecasts.waitMany(priced.taskIds);
  const summary = await client.decisions.summary.refresh(decision.id);
  console.log(`  summary: ${summary.text.slice(0, 160)}…\n  recommendation: ${summary.recommendation}`);

  console.log(`\nDone: ${mock.service.requests.count()} requests reached the mock service.`);
} finally {
  await mock.close();
}
