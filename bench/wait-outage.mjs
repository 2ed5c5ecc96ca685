// Long waits through a 60 s outage of the service: `forecasts.wait` on one light forecast,
// `forecasts.waitMany` on 50 and `forecasts.runMany` of 200, each run twice on the same setup, once
// with the mock's port closed (connections refused) for 60 s of mock time during its reads, once
// without. Time is mock time: the mock runs on its manual clock and the client's waits move it
// (mockClientOptions), so the hours of forecasts and the outage take a second or two of real time.
// Reported: the attempts made while the service was down, the time from its return to the flow's
// first answer (the backoff's cost), and when the flow finished against the run without an outage.
// Targets: at most 9 attempts in the minute down (no hammering), back within 30 s, all complete.
import { ForecastingClient } from '../dist/index.js';
import { ManualClock, mockClientOptions, startMockServer } from '../dist/testing/index.js';

const OUTAGE_MS = 60_000;

/** A mock whose port can close for a while and open again on the same port, with the same state. */
async function outageMock() {
  const clock = new ManualClock();
  let server = await startMockServer({ clock });
  const { service } = server;
  const port = Number(new URL(server.baseURL).port);
  let restarting;
  return {
    service,
    clock,
    client: () => new ForecastingClient({ ...mockClientOptions(server, { busy: () => restarting !== undefined }), logLevel: 'off' }),
    outage(from, ms) {
      clock.schedule(from, () => void server.close());
      clock.schedule(from + ms, () => {
        restarting = startMockServer({ service, port }).then((s) => {
          server = s;
          restarting = undefined;
        });
      });
    },
    close: async () => {
      await restarting;
      await server.close();
    },
  };
}

/**
 * Runs `flow` on a fresh mock, with an outage from `at` ms after the flow starts when `down`.
 * Returns what the client attempted during the outage and when things happened, in mock ms.
 */
async function measure(setup, flow, at, down) {
  const mock = await outageMock();
  const client = mock.client();
  const input = await setup(client, mock.service);
  const start = mock.clock.now();
  if (down) mock.outage(start + at, OUTAGE_MS);
  const attempts = [];
  let retries = 0;
  client.on('request', () => attempts.push(mock.clock.now() - start));
  client.on('retry', () => retries++);
  const completed = await flow(client, input);
  const finished = mock.clock.now() - start;
  const back = mock.service.requests.list().find((r) => r.at - start >= at + OUTAGE_MS);
  await mock.close();
  return {
    completed,
    finished,
    requests: attempts.length,
    retries,
    during: attempts.filter((t) => t >= at && t < at + OUTAGE_MS).length,
    backAfter: back ? back.at - start - (at + OUTAGE_MS) : undefined,
  };
}

const questions = async (client, n, title) => {
  const ids = [];
  for (let i = 0; i < n; i += 50) ids.push(...(await Promise.all(Array.from({ length: Math.min(50, n - i) }, (_, k) => client.questions.create({ type: 'binary', title: `${title} ${i + k}` })))).map((q) => q.id));
  return ids;
};

const cases = [
  {
    name: 'wait, 1 light forecast',
    // Read at once (queued, Retry-After 15 s), then at 15 s: in the outage.
    at: 10_000,
    setup: async (client) => (await client.forecasts.create({ questionId: (await questions(client, 1, 'Outage: one'))[0], runMode: 'light' })).id,
    flow: async (client, id) => ((await client.forecasts.wait(id)).status === 'completed' ? 1 : 0),
  },
  {
    name: 'waitMany, 50 light forecasts',
    at: 10_000,
    setup: async (client) => (await client.forecasts.createMany((await questions(client, 50, 'Outage: many')).map((questionId) => ({ questionId, runMode: 'light' })))).map((r) => r.taskId),
    flow: async (client, ids) => (await client.forecasts.waitMany(ids, { full: false })).filter((t) => t.status === 'completed').length,
  },
  {
    name: 'runMany, 200 light forecasts',
    // Batches start at once, the first round reads 15 s later, the next 120 s after that: in the outage.
    at: 130_000,
    setup: async (client, service) => {
      service.forecastControls.setCredits({ balance: 100_000 });
      return questions(client, 200, 'Outage: run');
    },
    flow: async (client, ids) => {
      let done = 0;
      for await (const r of client.forecasts.runMany(ids.map((questionId) => ({ questionId, runMode: 'light' })))) if (r.status === 'completed') done++;
      return done;
    },
  },
];

const t0 = performance.now();
const s = (ms) => (ms === undefined ? '–' : `${(ms / 1000).toFixed(1)} s`);
console.log(`\nA ${OUTAGE_MS / 1000} s outage (connections refused) during each flow's reads, mock time; client defaults:\n`);
console.log('| flow | completed | attempts while down | retries | back → first answer | finished (no outage) | requests (no outage) | targets |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
let ok = true;
for (const c of cases) {
  const calm = await measure(c.setup, c.flow, c.at, false);
  const hit = await measure(c.setup, c.flow, c.at, true);
  const met = hit.completed === calm.completed && hit.during <= 9 && hit.backAfter !== undefined && hit.backAfter <= 30_000;
  ok &&= met;
  console.log(`| ${c.name} | ${hit.completed} | ${hit.during} | ${hit.retries} | ${s(hit.backAfter)} | ${s(hit.finished)} (${s(calm.finished)}) | ${hit.requests} (${calm.requests}) | ${met ? 'met' : 'MISSED'} |`);
}
console.log(`\n(targets: every forecast completes, at most 9 attempts in the minute down, first answer within 30 s of the service's return; real time ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
console.log(ok ? 'All targets met.' : 'TARGET MISSED.');
process.exit(ok ? 0 : 1);
