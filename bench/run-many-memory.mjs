// Memory of forecasts.runMany: 200,000 items streamed from a generator through a fake service that
// answers at once (in-process `fetch`: every batch accepted, every task final on its first listing)
// on a virtual clock. The heap is sampled after a full GC every 20,000 results; the target is a flat
// heap after warm-up: what the run holds is the running tasks and one batch, never the items or results behind it.
// Run with --expose-gc (the script re-runs itself with it when needed).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (typeof globalThis.gc !== 'function') {
  try {
    execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url)], { stdio: 'inherit' });
  } catch {
    process.exit(1);
  }
  process.exit(0);
}

const { ForecastingClient } = await import('../dist/index.js');

const N = Number(process.env.RUN_MANY_MEMORY_ITEMS ?? 200_000);
const SAMPLE_EVERY = 20_000;
let nextTask = 0;
let requests = 0;
const json = (body, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The fake service: only what runMany calls. */
const fakeFetch = async (input, init) => {
  requests++;
  // An answer comes back on a later turn of the event loop, as from a socket. (Answering in the same
  // microtask chain forever would also keep every WeakRef target of the run alive: V8 frees them only
  // once the microtask queue is empty.)
  await new Promise((resolve) => setImmediate(resolve));
  const request = new Request(input, init);
  const url = new URL(request.url);
  if (url.pathname.endsWith('/forecasts/batch')) {
    const { items } = await request.json();
    const results = items.map((_, index) => ({ index, status: 'accepted', taskId: `task-${nextTask++}` }));
    return json({ counts: { total: items.length, accepted: items.length, rejected: 0 }, items: results }, 200);
  }
  if (url.pathname.endsWith('/forecasts')) {
    const ids = url.searchParams.get('taskId').split(',');
    const data = ids.map((taskId) => ({
      taskId,
      status: 'completed',
      forecastData: { questionType: 'binary', format: 'probability', payload: { probability: 0.42 } },
      report: { status: 'pending', short: null },
    }));
    return json({ type: 'list', data, hasMore: false, nextCursor: null });
  }
  if (url.pathname.endsWith('/run-modes')) {
    return json({ type: 'list', data: [{ key: 'light', credits: 1, isDefault: true }], hasMore: false, nextCursor: null });
  }
  return json({ type: 'error', error: { type: 'not_found', message: url.pathname } }, 404);
};

let now = Date.parse('2027-01-01T00:00:00Z');
const clock = { now: () => now, sleep: async (ms) => void (now += ms) };
const client = new ForecastingClient({ apiKey: 'pre_bench', baseURL: 'https://fake.invalid/api/v1/external', fetch: fakeFetch, clock, logLevel: 'off' });

function* items() {
  for (let i = 0; i < N; i++) yield { questionId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, runMode: 'light' };
}

const heap = () => {
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};
const samples = [];
const t0 = performance.now();
let done = 0;
let completed = 0;
for await (const r of client.forecasts.runMany(items(), { runId: 'memory', total: N })) {
  done++;
  if (r.status === 'completed') completed++;
  if (done % SAMPLE_EVERY === 0) samples.push([done, heap()]);
}
const seconds = (performance.now() - t0) / 1000;

const mb = (b) => (b / 1024 / 1024).toFixed(2);
console.log(`\nrunMany over ${N.toLocaleString('en')} items from a generator, fake instant service (${requests} requests, ${seconds.toFixed(1)} s):\n`);
console.log('| results | heap used after GC |');
console.log('| ---: | ---: |');
for (const [n, bytes] of samples) console.log(`| ${n.toLocaleString('en')} | ${mb(bytes)} MB |`);
// The first 40,000 results warm up (compiled code, pools); from there on the heap must stay flat.
const base = samples[1];
const growth = samples.at(-1)[1] - base[1];
const perItem = growth / (samples.at(-1)[0] - base[0]);
console.log(`\ngrowth from ${base[0].toLocaleString('en')} (after warm-up) to ${samples.at(-1)[0].toLocaleString('en')} results: ${mb(growth)} MB (${perItem.toFixed(1)} bytes per item)`);
const flat = completed === N && growth < 2 * 1024 * 1024;
console.log(`target: every item completed and growth under 2 MB (flat): ${flat ? 'met' : 'MISSED'}`);
process.exit(flat ? 0 : 1);
