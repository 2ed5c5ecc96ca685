// Start a forecast and wait for it with a progress bar.
//
//   node examples/progress-bar.mjs        against the mock service, started here on 127.0.0.1
//   FORECASTING_API_KEY=pre_… FORECASTING_BASE_URL=https://…/api/v1/external node examples/progress-bar.mjs
//
// The wait reads the task no faster than the service asks (Retry-After); Ctrl-C stops waiting
// (the forecast goes on running on the service).
import { ForecastingClient } from 'forecasting-sdk';
import { startMockServer } from 'forecasting-sdk/testing';

const mock = process.env.FORECASTING_BASE_URL ? undefined : await startMockServer();
const client = new ForecastingClient(mock ? { apiKey: mock.apiKey, baseURL: mock.baseURL } : {});

const controller = new AbortController();
process.once('SIGINT', () => controller.abort(new Error('stopped waiting (the forecast keeps running)')));

/** `[██████░░░░░░] 3/5 running_subforecasts`, redrawn in place on a terminal, one line per read otherwise. */
function render(p) {
  const done = p.completedSubforecastCount ?? 0;
  const total = p.plannedSubforecastCount ?? 0;
  const width = 24;
  const filled = total > 0 ? Math.round((done / total) * width) : 0;
  const line = `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${done}/${total} ${p.status}${p.reportStatus ? ` (report ${p.reportStatus})` : ''}`;
  if (process.stdout.isTTY) process.stdout.write(`\r\x1b[2K${line}`);
  else console.log(line);
}

try {
  const question = await client.questions.create({
    type: 'numeric',
    title: 'Brent crude price on 1 June 2027 (USD)?',
    lowerBound: 40,
    upperBound: 140,
    scaleType: 'linear',
  });
  console.log(`Forecasting "${question.title}"`);
  const task = await client.forecasts.createAndWait(
    { questionId: question.id, runMode: 'standard' },
    { onProgress: render, waitForReport: true, signal: controller.signal },
  );
  if (process.stdout.isTTY) process.stdout.write('\n');

  if (task.status !== 'completed') {
    console.error(`The forecast ended ${task.status}: ${task.error?.message ?? 'no reason given'}`);
    process.exitCode = 1;
  } else {
    const data = task.forecast.forecastData;
    if (data.questionType === 'numeric') {
      const { p10, p50, p90 } = data.payload.percentiles;
      console.log(`Median ${p50.toFixed(1)} USD, 80% between ${p10.toFixed(1)} and ${p90.toFixed(1)}`);
    }
    console.log(`Report: ${task.forecast.report?.short ?? '(not written)'}`);
  }
} finally {
  await mock?.close();
}
