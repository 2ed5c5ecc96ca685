// A server answering every request with one question record, in its own process (the machine has 2
// cores): a benchmark of one GET then compares only client-side work. Shared by the throughput
// benchmarks.
import { spawn } from 'node:child_process';
import { once } from 'node:events';

/** The question the server answers with (its id is the one to ask for). */
export const QUESTION_ID = '6f1c0e2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b';

const serverSource = `
  const body = JSON.stringify({
    id: '${QUESTION_ID}', type: 'binary', title: 'Will it rain in Paris on 1 June 2027?',
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

/** Starts the server on a free loopback port: its base URL, and how to stop it. */
export async function startQuestionServer() {
  const child = spawn(process.execPath, ['-e', serverSource], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [port] = await once(child.stdout, 'data');
  return { baseURL: `http://127.0.0.1:${String(port).trim()}/api/v1/external`, stop: () => child.kill() };
}

/** Calls per sample, samples per variant, calls at once: BENCH_CALLS, BENCH_ROUNDS, BENCH_CONCURRENCY. */
export const CALLS = Number(process.env.BENCH_CALLS ?? 3000);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);
export const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

/**
 * Measures each variant's calls a second, in rounds (each round runs every variant back to back,
 * after one warm-up of each, each round starting one variant further on), so machine drift and the
 * place in a round hit each alike. `setUp(name)` runs before a
 * variant's sample, `tearDown(name)` after; `calls` and `rounds` default to BENCH_CALLS and BENCH_ROUNDS. Returns the samples by variant, their `median`, and
 * `paired(a, b)`: the median of the per-round ratios a/b (drift between rounds cancels out).
 */
export async function inRounds(variants, { setUp = () => undefined, tearDown = () => undefined, calls = CALLS, rounds = ROUNDS } = {}) {
  const sample = async (name) => {
    setUp(name);
    let next = 0;
    const worker = async () => {
      while (next++ < calls) await variants[name]();
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const rate = calls / ((performance.now() - started) / 1000);
    tearDown(name);
    return rate;
  };
  for (const name of Object.keys(variants)) await sample(name);
  const samples = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  // Each round starts one variant further on: a sample runs faster first in its round than after
  // another (measured: 15 %), so every variant takes every place equally often.
  const names = Object.keys(variants);
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length];
      samples[name].push(await sample(name));
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { samples, median: (name) => median(samples[name]), paired: (a, b) => median(samples[a].map((x, i) => x / samples[b][i])) };
}
