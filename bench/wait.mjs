// HTTP requests spent waiting for forecasts: `forecasts.wait` on one standard-mode forecast and
// `forecasts.waitMany` on 50 concurrent ones, against a naive poll of each task every second.
// Runs against the mock service in-process on its manual clock (the client's waits move it), so the
// hours of forecast time take a second or two. Targets: ≥ 10× fewer for one, ≥ 100× fewer for 50.
import { ForecastingClient } from '../dist/index.js';
import { ManualClock, mockClientOptions, startMockServer } from '../dist/testing/index.js';

const mock = await startMockServer({ clock: new ManualClock() });
const client = new ForecastingClient({ ...mockClientOptions(mock), logLevel: 'off' });
const reads = () => mock.service.requests.count({ operation: 'forecasts.retrieve' }) + mock.service.requests.count({ operation: 'forecasts.list' });
const question = (title) => client.questions.create({ type: 'binary', title });

// Naive: read the task once a second (of mock time) until it is final.
async function naivePolls(taskId) {
  for (let polls = 1; ; polls++) {
    const res = await fetch(`${mock.baseURL}/forecasts/${taskId}`, { headers: { authorization: `Bearer ${mock.apiKey}` } });
    const { status } = await res.json();
    if (['completed', 'failed', 'cancelled'].includes(status)) return polls;
    mock.clock.advance(1000);
  }
}
// What the naive poll of a task costs, from its timestamps: one read at start, then one a second.
const naiveFromTimes = (task) => Math.ceil((Date.parse(task.finishedAt) - Date.parse(task.createdAt)) / 1000) + 1;

// One standard forecast (about 30 minutes).
const one = await client.forecasts.create({ questionId: (await question('Bench: one')).id, runMode: 'standard' });
let before = reads();
const oneDone = await client.forecasts.wait(one.id);
const sdkOne = reads() - before;
const naiveRef = await client.forecasts.create({ questionId: (await question('Bench: naive')).id, runMode: 'standard' });
const naiveOne = await naivePolls(naiveRef.id);

// 50 concurrent forecasts of mixed run modes.
const modes = ['light', 'moderate', 'standard', 'deep', 'max'];
const questions = await Promise.all(Array.from({ length: 50 }, (_, i) => question(`Bench: many ${i}`)));
const started = await client.forecasts.createMany(questions.map((q, i) => ({ questionId: q.id, runMode: modes[i % modes.length] })));
before = reads();
const tasks = await client.forecasts.waitMany(started.map((r) => r.taskId));
const sdkMany = reads() - before;
const naiveMany = tasks.reduce((sum, t) => sum + naiveFromTimes(t), 0);
await mock.close();

console.log('\nRequests spent waiting (mock clock; naive = one read per task per second):\n');
console.log('| case | SDK | naive | ratio | target |');
console.log('| --- | ---: | ---: | ---: | ---: |');
const row = (name, sdk, naive, target) => {
  const ratio = naive / sdk;
  console.log(`| ${name} | ${sdk} | ${naive} | ${ratio.toFixed(0)}× fewer | ≥ ${target}× ${ratio >= target ? 'met' : 'MISSED'} |`);
};
row('wait, 1 standard forecast', sdkOne, naiveOne, 10);
row('waitMany, 50 concurrent forecasts', sdkMany, naiveMany, 100);
console.log(`\n(naive for 50 is counted from each task's timestamps; for the single task the measured naive run took ${naiveOne} reads and the formula gives ${naiveFromTimes(oneDone)})`);
