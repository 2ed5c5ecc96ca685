// Start-up of the `forecasting` binary (dist/cli.js; `npm run bench` builds first):
// 1. `forecasting --help` over `node -e 0`: the command table and commander, nothing else (budget ~100 ms);
// 2. each command run to its end against a local mock, loading only what it needs
//    (`webhooks verify` the webhooks entry, `questions` the client, `mock` the mock service).
// Medians of N runs, one after another (run it on a quiet machine: a busy one adds its noise).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { signWebhook } from '../dist/webhooks/index.js';
import { startMockServer } from '../dist/testing/index.js';

const BIN = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const RUNS = Number(process.env.RUNS ?? 15);

/** Runs a child to its end (asynchronously: the mock answering it runs in this process). */
function once(args, env, input) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(input);
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - start) : reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`))));
  });
}

async function time(args, { env = {}, input } = {}) {
  const samples = [];
  for (let i = 0; i < RUNS; i++) samples.push(await once(args, env, input));
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], min: samples[0] };
}

/** Time until `forecasting mock` prints its address (then it is stopped). */
async function mockStart() {
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const child = spawn(process.execPath, [BIN, 'mock', '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => child.stdout.once('data', resolve));
    samples.push(performance.now() - start);
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('close', resolve));
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], min: samples[0] };
}

const mock = await startMockServer({ timeScale: 3600 });
const env = { FORECASTING_API_KEY: mock.apiKey, FORECASTING_BASE_URL: mock.baseURL };
const res = await fetch(`${mock.baseURL}/questions`, {
  method: 'POST',
  headers: { authorization: `Bearer ${mock.apiKey}`, 'content-type': 'application/json' },
  body: JSON.stringify({ type: 'binary', title: 'Will the bench be quick?' }),
});
const question = await res.json();
const body = JSON.stringify({ id: 'evt_1', type: 'forecast.completed', createdAt: new Date().toISOString(), data: {} });
const header = await signWebhook(body, 'whsec_bench', { timestamp: Math.floor(Date.now() / 1000) });

const rows = [];
const add = (name, t) => rows.push({ name, ...t });
const base = await time(['-e', '0']);
add('node -e 0', base);
const help = await time([BIN, '--help']);
add('forecasting --help', help);
add('forecasting questions create --help', await time([BIN, 'questions', 'create', '--help']));
add('forecasting webhooks verify (a good call)', await time([BIN, 'webhooks', 'verify', '--secret', 'whsec_bench', '--header', header], { input: body }));
add('forecasting questions get ID (the client, one request)', await time([BIN, 'questions', 'get', question.id], { env }));
add('forecasting questions create (the client, one request)', await time([BIN, 'questions', 'create', '--type', 'binary', '--title', 'Bench?'], { env }));
add('forecasting mock (until it prints its address)', await mockStart());
await mock.close();

console.log(`Node ${process.version}, ${RUNS} runs each (ms)\n`);
console.log(`${'command'.padEnd(58)}${'median'.padStart(8)}${'min'.padStart(8)}${'over node -e 0'.padStart(16)}`);
for (const r of rows) {
  console.log(`${r.name.padEnd(58)}${r.median.toFixed(1).padStart(8)}${r.min.toFixed(1).padStart(8)}${(r.median - base.median).toFixed(1).padStart(16)}`);
}
const overhead = help.median - base.median;
console.log(`\nforecasting --help adds ${overhead.toFixed(1)} ms over node -e 0 (budget ~100 ms): ${overhead <= 100 ? 'within' : 'OVER'}`);
