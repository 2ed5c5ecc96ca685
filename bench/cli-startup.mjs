// Start-up of the `forecasting` binary (dist/cli.js; `npm run bench` builds first):
// 1. `forecasting --help` over `node -e 0`: the command table and commander, nothing else (budget ~100 ms);
// 2. each command run to its end against a local mock, loading only what it needs
//    (`webhooks verify` the webhooks entry, `questions` the client, `mock` the mock service).
// Medians of N runs; "over node -e 0" is the median of paired differences (a baseline run before each
// run), which a machine whose load drifts skews less than two separate medians.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { signWebhook } from '../dist/webhooks/index.js';
import { startMockServer } from '../dist/testing/index.js';

const BIN = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const RUNS = Number(process.env.RUNS ?? 15);

/**
 * Makes a child report its own CPU time (user + system, whole process) on exit, on fd 3: unlike wall
 * time it hardly moves when other work shares the machine.
 */
const CPU_PROBE = `data:text/javascript,${encodeURIComponent("import { writeSync } from 'node:fs'; process.on('exit', () => { const u = process.cpuUsage(); try { writeSync(3, String((u.user + u.system) / 1000)); } catch {} });")}`;

/** Runs a child to its end (asynchronously: the mock answering it runs in this process): wall ms and CPU ms. */
function once(args, env, input) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, ['--import', CPU_PROBE, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let cpu = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdio[3].on('data', (d) => (cpu += d));
    child.stdin.end(input);
    child.on('close', (code) => (code === 0 ? resolve({ wall: performance.now() - start, cpu: Number(cpu) }) : reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`))));
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The command's time, and its time over `node -e 0` measured in pairs (a baseline run right before
 * each run of the command), so a machine whose load drifts during the bench skews both alike.
 */
async function time(args, { env = {}, input } = {}) {
  const samples = [];
  const over = [];
  const cpu = [];
  const cpuOver = [];
  for (let i = 0; i < RUNS; i++) {
    const base = await once(['-e', '0'], {}, undefined);
    const t = await once(args, env, input);
    samples.push(t.wall);
    over.push(t.wall - base.wall);
    cpu.push(t.cpu);
    cpuOver.push(t.cpu - base.cpu);
  }
  return { median: median(samples), min: Math.min(...samples), over: median(over), cpu: median(cpu), cpuOver: median(cpuOver) };
}

/** Time until `forecasting mock` prints its address (then it is stopped). */
async function mockStart() {
  const samples = [];
  const over = [];
  for (let i = 0; i < RUNS; i++) {
    const base = (await once(['-e', '0'], {}, undefined)).wall;
    const start = performance.now();
    const child = spawn(process.execPath, [BIN, 'mock', '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => child.stdout.once('data', resolve));
    samples.push(performance.now() - start);
    over.push(samples.at(-1) - base);
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('close', resolve));
  }
  return { median: median(samples), min: Math.min(...samples), over: median(over), cpu: NaN, cpuOver: NaN };
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
const f = (x) => (Number.isNaN(x) ? '-' : x.toFixed(1));
console.log(`${'command'.padEnd(58)}${'wall'.padStart(8)}${'min'.padStart(8)}${'+wall'.padStart(8)}${'cpu'.padStart(8)}${'+cpu'.padStart(8)}`);
for (const r of rows) {
  console.log(`${r.name.padEnd(58)}${f(r.median).padStart(8)}${f(r.min).padStart(8)}${f(r.over).padStart(8)}${f(r.cpu).padStart(8)}${f(r.cpuOver).padStart(8)}`);
}
console.log('\nwall, cpu: medians; min: fastest wall; +wall, +cpu: median over node -e 0, measured in pairs.');
console.log(`forecasting --help adds ${f(help.over)} ms wall, ${f(help.cpuOver)} ms CPU over node -e 0 (budget ~100 ms): ${Math.min(help.over, help.cpuOver) <= 100 ? 'within' : 'OVER'}`);
