// 60 forecasts at once: `createMany` sends them in batches of 25, and `waitMany` waits for them with
// one list request per round instead of one read per task.
//
//   node examples/batch.mjs        against the mock service, started here on 127.0.0.1
//   FORECASTING_API_KEY=pre_… FORECASTING_BASE_URL=https://…/api/v1/external node examples/batch.mjs
//
// At most 50 API-started forecasts run at once per user: the items over that are rejected one by one
// (`too_many_active_forecasts`), and this script starts them again once the first ones are done.
import { ForecastingClient } from 'forecasting-sdk';
import { startMockServer } from 'forecasting-sdk/testing';

const mock = process.env.FORECASTING_BASE_URL ? undefined : await startMockServer();
const client = new ForecastingClient(mock ? { apiKey: mock.apiKey, baseURL: mock.baseURL } : {});

const cities = Array.from({ length: 60 }, (_, i) => `City ${String(i + 1).padStart(2, '0')}`);
// Each item carries its question inline: the service creates it with the forecast.
let pending = cities.map((city) => ({ city, item: { question: { type: 'binary', title: `Will it rain in ${city} on 1 June 2027?` }, runMode: 'light' } }));
const chances = new Map();

try {
  for (let round = 1; pending.length > 0; round++) {
    const results = await client.forecasts.createMany(pending.map((p) => p.item));
    const started = [];
    const later = [];
    for (const result of results) {
      const { city, item } = pending[result.index];
      if (result.status === 'accepted') started.push({ city, taskId: result.taskId });
      else if (result.error?.type === 'too_many_active_forecasts') later.push({ city, item });
      else console.error(`${city}: refused (${result.error?.type}: ${result.error?.message})`);
    }
    console.log(`round ${round}: started ${started.length}${later.length ? `, ${later.length} wait for a free slot` : ''}`);
    if (started.length === 0) break;

    const finished = new Set();
    const onProgress = (p) => {
      if (!p.final || finished.has(p.taskId)) return;
      finished.add(p.taskId);
      if (finished.size % 10 === 0 || finished.size === started.length) console.log(`  ${finished.size}/${started.length} done`);
    };
    const tasks = await client.forecasts.waitMany(started.map((s) => s.taskId), { onProgress });
    tasks.forEach((task, i) => {
      const data = task.status === 'completed' ? task.forecast.forecastData : undefined;
      if (data?.questionType === 'binary') chances.set(started[i].city, data.payload.probability);
      else console.error(`${started[i].city}: the forecast ended ${task.status}`);
    });
    pending = later;
  }

  const ranked = [...chances].sort((a, b) => b[1] - a[1]);
  console.log(`${chances.size} forecasts completed; wettest: ${ranked.slice(0, 3).map(([city, p]) => `${city} ${Math.round(p * 100)}%`).join(', ')}`);
  if (chances.size !== cities.length) process.exitCode = 1;
} finally {
  await mock?.close();
}
