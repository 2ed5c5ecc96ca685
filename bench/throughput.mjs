// Per-call throughput of one GET against a local server: the SDK against ky alone, raw fetch and
// openai-node's generic `get`, all in the same run, interleaved in rounds so drift hits each alike.
// Targets: the SDK's own layers cost at most 10 % over ky; the SDK is at least as fast as openai's get.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import ky from 'ky';
import OpenAI from 'openai';
import { ForecastingClient } from '../dist/index.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 3000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

// The server runs in its own process (the machine has 2 cores), so only client-side work is compared.
const serverSource = `
  const body = JSON.stringify({
    id: '6f1c0e2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b', type: 'binary', title: 'Will it rain in Paris on 1 June 2027?',
    description: '', resolutionCriteria: '', finePrint: '', options: [], lowerBound: null, upperBound: null,
    openLowerBound: false, openUpperBound: false, scaleType: null, callsign: 'amber-fox-river',
    optionsAreMutuallyExclusive: true, optionsAreComprehensive: true, visibility: 'private', createdVia: 'api',
    tags: [], createdAt: '2026-11-22T10:00:00.000Z', updatedAt: '2026-11-22T10:00:00.000Z',
  });
  const server = require('node:http').createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  });
  server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;
const child = spawn(process.execPath, ['-e', serverSource], { stdio: ['ignore', 'pipe', 'inherit'] });
const [port] = await once(child.stdout, 'data');
const baseURL = `http://127.0.0.1:${String(port).trim()}/api/v1/external`;
const id = '6f1c0e2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
const key = 'pre_bench_key';

const kyClient = ky.create({ prefixUrl: baseURL, retry: 0, headers: { authorization: `Bearer ${key}` } });
const sdk = new ForecastingClient({ apiKey: key, baseURL, logLevel: 'off' });
const openai = new OpenAI({ apiKey: key, baseURL, maxRetries: 0 });

const variants = {
  'raw fetch': () => fetch(`${baseURL}/questions/${id}`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.json()),
  'ky': () => kyClient.get(`questions/${id}`).json(),
  'forecasting-sdk': () => sdk.questions.retrieve(id),
  'openai get': () => openai.get(`/questions/${id}`),
};

async function run(call) {
  let next = 0;
  const worker = async () => {
    while (next++ < CALLS) await call();
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return CALLS / ((performance.now() - started) / 1000);
}

for (const call of Object.values(variants)) await run(call); // warm up every path once
const samples = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, call] of Object.entries(variants)) samples[name].push(await run(call));
}
child.kill();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rate = Object.fromEntries(Object.entries(samples).map(([name, xs]) => [name, median(xs)]));
console.log(`\nThroughput of one GET (${CALLS} calls, ${CONCURRENCY} at a time, median of ${ROUNDS} rounds):\n`);
console.log('| client | calls/s | vs raw fetch | vs ky |');
console.log('| --- | ---: | ---: | ---: |');
for (const [name, r] of Object.entries(rate)) {
  console.log(`| ${name} | ${r.toFixed(0)} | ${(r / rate['raw fetch']).toFixed(2)}× | ${(r / rate.ky).toFixed(2)}× |`);
}
// Ratios are taken round by round (each round runs every client back to back), then the median:
// machine drift between rounds cancels out.
const paired = (a, b) => median(samples[a].map((x, i) => x / samples[b][i]));
const overKy = 1 / paired('forecasting-sdk', 'ky') - 1;
const vsOpenai = paired('forecasting-sdk', 'openai get');
console.log(`\nSDK layers over ky (median of per-round ratios): ${(overKy * 100).toFixed(1)} % (target ≤ 10 %) — ${overKy <= 0.1 ? 'met' : 'MISSED'}`);
console.log(`SDK vs openai get (median of per-round ratios): ${vsOpenai.toFixed(2)}× (target ≥ 1.00×) — ${vsOpenai >= 1 ? 'met' : 'MISSED'}`);
