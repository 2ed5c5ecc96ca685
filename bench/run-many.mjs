// forecasts.runMany at scale on the mock with its limits on: 2,000 light forecasts (50 running per
// user, 60 requests a minute on the mock and in the client's budget, batches of 25), then the same
// 2,000 in a run killed after about 300 starts and run again with the same runId.
// The mock runs on its manual clock and the client's waits move it (mockClientOptions), so hours of
// forecast time take seconds. Targets: everything completes; the mock never saw more than 50 running
// and refused nothing; no 429; requests ≤ one per forecast started plus one list request per round.
import { ForecastingClient } from '../dist/index.js';
import { ManualClock, mockClientOptions, startMockServer } from '../dist/testing/index.js';

const N = Number(process.env.RUN_MANY_ITEMS ?? 2000);
const KILL_AFTER = 300;
// The report counts every request of a run: a log that drops none (RUN_MANY_ITEMS may pass 10,000).
const mock = await startMockServer({ clock: new ManualClock(), requestLogLimit: Infinity });
const service = mock.service;
const connect = (extra = {}) => new ForecastingClient({ ...mockClientOptions(mock), logLevel: 'off', rateLimit: { requestsPerMinute: 60 }, ...extra });

async function questions(n) {
  const setup = new ForecastingClient({ ...mockClientOptions(mock), logLevel: 'off' });
  const ids = [];
  for (let i = 0; i < n; i += 100) {
    const made = await Promise.all(Array.from({ length: Math.min(100, n - i) }, (_, k) => setup.questions.create({ type: 'binary', title: `Bench question ${i + k}` })));
    ids.push(...made.map((q) => q.id));
  }
  return ids;
}

function* itemsOf(ids) {
  for (const questionId of ids) yield { questionId, runMode: 'light' };
}

function perQuestion() {
  const per = new Map();
  for (const f of service.store.forecasts.list()) per.set(f.questionId, (per.get(f.questionId) ?? 0) + 1);
  return per;
}

function report(title, results, t0, mock0) {
  const count = (operation) => service.requests.count({ operation });
  const activity = service.forecastControls.activity();
  const per = perQuestion();
  const batches = count('forecasts.createBatch');
  const rounds = count('forecasts.list');
  const other = service.requests.length - batches - rounds;
  const byStatus = {};
  for (const r of results) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
  const target = activity.started + rounds;
  const limited = service.requests.count({ status: 429 });
  console.log(`\n## ${title}\n`);
  console.log('| measure | value |');
  console.log('| --- | ---: |');
  console.log(`| results | ${results.length} (${Object.entries(byStatus).map(([k, v]) => `${k} ${v}`).join(', ')}) |`);
  console.log(`| distinct indexes | ${new Set(results.map((r) => r.index)).size} |`);
  console.log(`| forecasts started on the mock | ${activity.started} |`);
  console.log(`| questions forecast exactly once | ${[...per.values()].filter((n) => n === 1).length} of ${per.size} (more than once: ${[...per.values()].filter((n) => n > 1).length}) |`);
  console.log(`| most running at once (mock's record) | ${activity.maxActive} |`);
  console.log(`| starts refused by the mock | ${JSON.stringify(activity.refused)} |`);
  console.log(`| 429 answers | ${limited} |`);
  console.log(`| requests: batch starts | ${batches} (${service.requests.list({ operation: 'forecasts.createBatch' }).filter((r) => r.replayed).length} replayed) |`);
  console.log(`| requests: list (one per polling round) | ${rounds} |`);
  console.log(`| requests: other (run-mode prices) | ${other} |`);
  console.log(`| requests in all | ${service.requests.length} |`);
  console.log(`| target: ≤ started + rounds | ${target}: ${service.requests.length <= target ? 'met' : 'MISSED'} (${(service.requests.length / activity.started).toFixed(3)} requests per forecast) |`);
  console.log(`| mock time | ${((service.clock.now() - mock0) / 3_600_000).toFixed(2)} h |`);
  console.log(`| real time | ${((performance.now() - t0) / 1000).toFixed(1)} s |`);
  const ok =
    results.length === N &&
    results.every((r) => r.status === 'completed') &&
    activity.maxActive <= 50 &&
    Object.keys(activity.refused).length === 0 &&
    limited === 0 &&
    [...per.values()].every((n) => n === 1) &&
    service.requests.length <= target;
  console.log(`\n${ok ? 'All targets met.' : 'TARGET MISSED.'}`);
  return ok;
}

// 1. One run of N items.
let ids = await questions(N);
service.forecastControls.setCredits({ balance: 100 * N }); // the default 1,000 credits would stop the run (see the tests)
service.requests.clear();
service.setRateLimit({ requestsPerMinute: 60 });
let t0 = performance.now();
let mock0 = service.clock.now();
const results = [];
for await (const r of connect().forecasts.runMany(itemsOf(ids), { runId: 'bench-run', total: N })) results.push(r);
const first = report(`${N} light forecasts, limits on`, results, t0, mock0);

// 2. The same on a fresh mock state, killed after about 300 starts and run again with the same runId.
service.reset();
service.setRateLimit(false);
ids = await questions(N);
service.forecastControls.setCredits({ balance: 100 * N });
service.requests.clear();
service.setRateLimit({ requestsPerMinute: 60 });
t0 = performance.now();
mock0 = service.clock.now();
const base = mockClientOptions(mock);
let dead = false;
let die;
const died = new Promise((resolve) => (die = resolve));
// The process "dies": the answer that reports the 300th start never arrives, nor does anything after.
const dying = async (input, init) => {
  if (dead) return new Promise(() => {});
  const response = await base.fetch(input, init);
  if (service.forecastControls.activity().started >= KILL_AFTER) {
    dead = true;
    die();
  }
  return dead ? new Promise(() => {}) : response;
};
const crashed = [];
void (async () => {
  for await (const r of connect({ clock: base.clock, fetch: dying }).forecasts.runMany(itemsOf(ids), { runId: 'bench-crash' })) crashed.push(r);
})();
await died;
const startedAtCrash = service.forecastControls.activity().started;
console.log(`\n(first run killed after ${startedAtCrash} starts, ${crashed.length} results seen)`);
const rerun = [];
for await (const r of connect().forecasts.runMany(itemsOf(ids), { runId: 'bench-crash', total: N })) rerun.push(r);
const second = report(`${N} light forecasts, killed after ${startedAtCrash} starts and run again with the same runId`, rerun, t0, mock0);
console.log(`resumed results (started by the killed run): ${rerun.filter((r) => r.resumed).length}`);

await mock.close();
process.exit(first && second ? 0 : 1);
