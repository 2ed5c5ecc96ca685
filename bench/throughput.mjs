// Per-call throughput of one GET against a local server: the SDK against ky alone, raw fetch and
// openai-node's generic `get`, all in the same run, interleaved in rounds so drift hits each alike.
// Targets: the SDK's own layers cost at most 10 % over ky; the SDK is at least as fast as openai's get.
import ky from 'ky';
import OpenAI from 'openai';
import { ForecastingClient } from '../dist/index.js';
import { CALLS, CONCURRENCY, inRounds, QUESTION_ID, ROUNDS, startQuestionServer } from './lib/question-server.mjs';

const server = await startQuestionServer();
const { baseURL } = server;
const id = QUESTION_ID;
// As long as a service key, so the client redacts it from every answer as it does in production.
const key = 'pre_bench_0123456789abcdef0123456789abcdef';

const kyClient = ky.create({ prefixUrl: baseURL, retry: 0, headers: { authorization: `Bearer ${key}` } });
const sdk = new ForecastingClient({ apiKey: key, baseURL, logLevel: 'off' });
const openai = new OpenAI({ apiKey: key, baseURL, maxRetries: 0 });

const variants = {
  'raw fetch': () => fetch(`${baseURL}/questions/${id}`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.json()),
  'ky': () => kyClient.get(`questions/${id}`).json(),
  'forecasting-sdk': () => sdk.questions.retrieve(id),
  'openai get': () => openai.get(`/questions/${id}`),
};

const { samples, median, paired } = await inRounds(variants);
server.stop();

const rate = Object.fromEntries(Object.keys(samples).map((name) => [name, median(name)]));
console.log(`\nThroughput of one GET (${CALLS} calls, ${CONCURRENCY} at a time, median of ${ROUNDS} rounds):\n`);
console.log('| client | calls/s | vs raw fetch | vs ky |');
console.log('| --- | ---: | ---: | ---: |');
for (const [name, r] of Object.entries(rate)) {
  console.log(`| ${name} | ${r.toFixed(0)} | ${(r / rate['raw fetch']).toFixed(2)}× | ${(r / rate.ky).toFixed(2)}× |`);
}
// Ratios are taken round by round (each round runs every client back to back), then the median:
// machine drift between rounds cancels out.
const overKy = 1 / paired('forecasting-sdk', 'ky') - 1;
const vsOpenai = paired('forecasting-sdk', 'openai get');
console.log(`\nSDK layers over ky (median of per-round ratios): ${(overKy * 100).toFixed(1)} % (target ≤ 10 %) — ${overKy <= 0.1 ? 'met' : 'MISSED'}`);
console.log(`SDK vs openai get (median of per-round ratios): ${vsOpenai.toFixed(2)}× (target ≥ 1.00×) — ${vsOpenai >= 1 ? 'met' : 'MISSED'}`);
