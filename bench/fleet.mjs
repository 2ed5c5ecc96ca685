// Many processes, one key, on one redis-server and on a Redis Cluster (3 masters; FLEET_TOPOLOGIES,
// default "server,cluster"): 4 worker processes share 2,000 light forecasts (createAndWait, up to
// FLEET_CONCURRENCY at a time each, default 50: the shared slots keep them to 50 running in all) through one Redis coordinator, with one webhook receiver process
// (webhookMiddleware(secret, { coordinator })) that the mock calls on loopback. Then the same run
// without the receiver: the polling fallback.
// Prints requests per forecast (target ≤ 2.2 with webhooks, about 3.5 or more without), the most
// forecasts running at once on the mock (target ≤ 50), 429 answers (target 0), time, and Redis
// commands per forecast (INFO commandstats before and after).
// Time: the mock runs on a scaled clock (FLEET_SCALE, default 100x: a real millisecond of loopback
// latency is then 0.1 s of mock time) that states its waits in mock seconds, and every process's client runs on the same mock time, so the shared budget (60 a mock
// minute), Retry-After and the safety cadence are all counted on one clock: hours of forecasts take
// a minute or two. Needs redis-server on PATH and the built package (npm run build).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { createClient, createCluster } from 'redis';
import { ForecastingClient } from '../dist/index.js';
import { createRedisCoordinator } from '../dist/redis/index.js';
import { ScaledClock, startMockServer } from '../dist/testing/index.js';
import { webhookMiddleware } from '../dist/webhooks/express.js';

const N = Number(process.env.FLEET_ITEMS ?? 2000);
const WORKERS = 4;
const SCALE = Number(process.env.FLEET_SCALE ?? 100);
const CONCURRENCY = Number(process.env.FLEET_CONCURRENCY ?? 50);
const env = (name) => process.env[name] ?? '';

/** Mock time shared by every process: the parent's scaled clock, read from the same epoch. */
function mockTime() {
  const realStart = Number(env('FLEET_REAL_START'));
  const scale = Number(env('FLEET_SCALE'));
  return {
    // Not real time: the fleet's Redis coordinator counts on this clock, which every process shares.
    simulated: true,
    now: () => realStart + (Date.now() - realStart) * scale,
    // The listener goes with the sleep: the SDK may hand one signal to many sleeps, and listeners
    // left on it made Node warn of a leak (MaxListenersExceededWarning) in the polling runs.
    sleep: (ms, signal) =>
      new Promise((resolve, reject) => {
        signal?.throwIfAborted();
        const onAbort = () => (clearTimeout(timer), reject(signal.reason));
        const timer = setTimeout(() => (signal?.removeEventListener('abort', onAbort), resolve()), Math.max(0, ms) / scale);
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
  };
}

async function connectedCoordinator() {
  // On the cluster, the node-redis cluster client: the coordinator's keys share one hash slot.
  const redis = env('FLEET_CLUSTER') === '1' ? createCluster({ rootNodes: [{ url: env('FLEET_REDIS') }] }) : createClient({ url: env('FLEET_REDIS') });
  // As docs/fleet.md says: a client without an 'error' listener throws on a lost connection.
  redis.on('error', () => undefined);
  await redis.connect();
  // The default margin (250 ms): each request counts in the window until a minute after its answer,
  // however late the event loops of a busy machine (seconds of mock time on a 100x clock) make it.
  return { redis, coordinator: createRedisCoordinator(redis, { prefix: env('FLEET_PREFIX') }) };
}

/** A worker process: createAndWait for each of its questions, FLEET_CONCURRENCY at a time. */
async function worker() {
  const { redis, coordinator } = await connectedCoordinator();
  // Warnings show: a Redis outage (limits per process meanwhile) explains a 429.
  const client = new ForecastingClient({ apiKey: env('FLEET_KEY'), baseURL: env('FLEET_URL'), clock: mockTime(), coordinator, logLevel: 'warn' });
  if (env('FLEET_RECEIVER') === '1') for (let i = 0; !coordinator.receiving() && i < 500; i++) await new Promise((r) => setTimeout(r, 10));
  const ids = JSON.parse(env('FLEET_QUESTIONS'));
  let next = 0;
  let completed = 0;
  const lane = async () => {
    while (next < ids.length) {
      const task = await client.forecasts.createAndWait({ questionId: ids[next++], runMode: 'light' });
      if (task.status === 'completed') completed++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ids.length) }, lane));
  console.log(JSON.stringify({ completed }));
  await coordinator.close();
  await redis.close();
}

/** The receiver process: an Express route whose middleware verifies each call and publishes it through the coordinator. */
async function receiver() {
  const { coordinator } = await connectedCoordinator();
  // No client here: the receiver's coordinator reads time from the shared mock clock too, so the
  // workers judge "a receiver seen recently" on one clock.
  coordinator.attach({ keyHash: (sha256Hex) => sha256Hex(env('FLEET_KEY')), clock: mockTime() });
  const app = express();
  app.post('/hooks', webhookMiddleware(env('FLEET_SECRET'), { coordinator }), (req, res) => void res.sendStatus(200));
  const server = app.listen(Number(env('FLEET_PORT')), '127.0.0.1', () => console.log('listening'));
  server.keepAliveTimeout = 60_000;
}

// ---- The parent: Redis, the mock, the processes, the report. ----

/** Whether `port` is free on loopback. */
function portFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free loopback port below the kernel's ephemeral range (an outgoing connection cannot take it
 * before redis-server binds it), with its cluster bus port (+10000) free too.
 */
async function freePort(taken = new Set()) {
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * 12_000);
    if (!taken.has(port) && (await portFree(port)) && (await portFree(port + 10_000))) {
      taken.add(port);
      return port;
    }
  }
}

/** Starts redis-server with `args`; resolves with the child once it accepts connections. */
function launch(args) {
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('error', () => reject(new Error('redis-server not found: apt-get install -y redis-server')));
    child.once('exit', (code) => reject(new Error(`redis-server exited ${code}: ${out}`)));
    child.stdout.on('data', (c) => {
      out += c;
      if (out.includes('Ready to accept connections')) {
        child.stdout.resume();
        resolve(child);
      }
    });
  });
}

const serverArgs = (port, dir) => ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--dbfilename', `dump-${port}.rdb`];

/** Starts redis-server on a free loopback port in a temporary directory, as the test harness does. */
async function startRedis() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'fsdk-fleet-'));
  const child = await launch(serverArgs(port, dir));
  return { url: `redis://127.0.0.1:${port}`, urls: [`redis://127.0.0.1:${port}`], cluster: false, stop: () => (child.kill('SIGKILL'), rmSync(dir, { recursive: true, force: true })) };
}

/** Starts a Redis Cluster of 3 masters (no replicas: the bench measures the fleet, not failover). */
async function startCluster() {
  const dir = mkdtempSync(join(tmpdir(), 'fsdk-fleet-cluster-'));
  const taken = new Set();
  const ports = [await freePort(taken), await freePort(taken), await freePort(taken)];
  const children = await Promise.all(ports.map((port) => launch([...serverArgs(port, dir), '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`])));
  execFileSync('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'], { stdio: 'ignore' });
  for (const port of ports) {
    while (!execFileSync('redis-cli', ['-p', String(port), 'CLUSTER', 'INFO']).toString().includes('cluster_state:ok')) await new Promise((r) => setTimeout(r, 100));
  }
  const urls = ports.map((p) => `redis://127.0.0.1:${p}`);
  return { url: urls[0], urls, cluster: true, stop: () => (children.forEach((c) => c.kill('SIGKILL')), rmSync(dir, { recursive: true, force: true })) };
}

/** Runs this file as a child in `role`; resolves with its first line (`line`) and all its output (`done`). */
function child(role, extra) {
  const proc = spawn(process.execPath, [fileURLToPath(import.meta.url)], { env: { ...process.env, FLEET_ROLE: role, ...extra }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let onLine;
  const line = new Promise((resolve) => (onLine = resolve));
  proc.stdout.on('data', (c) => {
    out += c;
    if (out.includes('\n')) onLine(out.split('\n')[0]);
  });
  const done = new Promise((resolve, reject) => proc.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${role} exited ${code}`)))));
  // The receiver is killed once the run is over: its exit fails nothing unless awaited.
  done.catch(() => undefined);
  return { proc, line, done };
}

/** Redis calls so far by command (INFO commandstats), summed over every node. */
async function redisCalls(nodes) {
  const calls = new Map();
  for (const node of nodes) {
    const info = await node.info('commandstats');
    for (const m of info.matchAll(/cmdstat_(\w+):calls=(\d+)/g)) calls.set(m[1], (calls.get(m[1]) ?? 0) + Number(m[2]));
  }
  return calls;
}

/** A scaled clock whose waits (`Retry-After`) are stated in mock seconds, as every process reads mock time. */
class MockTimeClock extends ScaledClock {
  realSeconds(mockMs) {
    return Math.max(1, Math.ceil(mockMs / 1000));
  }
}

async function run(title, withReceiver, redisServer) {
  const realStart = Date.now();
  // The clock's own first reading is realStart, so every process computes the same mock time from it.
  let first = true;
  const source = () => (first ? ((first = false), realStart) : Date.now());
  // Requests per forecast counts every request: a log that drops none (2,000 forecasts at 3.5 or more is near 10,000).
  const mock = await startMockServer({ clock: new MockTimeClock({ timeScale: SCALE, startMs: realStart, source }), webhooks: { allowLoopbackReceivers: true }, requestLogLimit: Infinity });
  const { service } = mock;
  const setup = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' });
  service.forecastControls.setCredits({ balance: 100 * N });
  const ids = [];
  for (let i = 0; i < N; i += 100) {
    const made = await Promise.all(Array.from({ length: Math.min(100, N - i) }, (_, k) => setup.questions.create({ type: 'binary', title: `Fleet question ${i + k}` })));
    ids.push(...made.map((q) => q.id));
  }
  const shared = { FLEET_REDIS: redisServer.url, FLEET_CLUSTER: redisServer.cluster ? '1' : '0', FLEET_PREFIX: `fleet-${withReceiver ? 'hooks' : 'poll'}`, FLEET_REAL_START: String(realStart), FLEET_SCALE: String(SCALE), FLEET_RECEIVER: withReceiver ? '1' : '0' };
  let receiverProc;
  if (withReceiver) {
    const port = await freePort();
    // As docs/fleet.md recommends: every final kind, so no wait polls for an outcome no receiver would hear of.
    const hook = await setup.webhooks.create({ url: `http://127.0.0.1:${port}/hooks`, eventKinds: ['forecast.completed', 'forecast.failed', 'forecast.cancelled'] });
    receiverProc = child('receiver', { ...shared, FLEET_KEY: mock.apiKey, FLEET_PORT: String(port), FLEET_SECRET: hook.signingSecret });
    await receiverProc.line;
    await setup.webhooks.test(hook.id);
    await service.webhooks.idle();
  }
  const nodes = await Promise.all(redisServer.urls.map((url) => createClient({ url }).on('error', () => undefined).connect()));
  service.setRateLimit({ requestsPerMinute: 60 });
  service.requests.clear();
  const calls0 = await redisCalls(nodes);
  const t0 = performance.now();
  const mock0 = service.clock.now();
  const share = Math.ceil(N / WORKERS);
  const workers = Array.from({ length: WORKERS }, (_, w) => child('worker', { ...shared, FLEET_KEY: mock.apiKey, FLEET_URL: mock.baseURL, FLEET_QUESTIONS: JSON.stringify(ids.slice(w * share, (w + 1) * share)) }));
  const outputs = await Promise.all(workers.map((w) => w.done));
  const seconds = (performance.now() - t0) / 1000;
  const completed = outputs.reduce((sum, out) => sum + JSON.parse(out.trim().split('\n').at(-1)).completed, 0);
  const calls1 = await redisCalls(nodes);
  const byCommand = [...calls1].map(([name, n]) => [name, n - (calls0.get(name) ?? 0)]).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  const commands = byCommand.reduce((sum, [, n]) => sum + n, 0);
  const activity = service.forecastControls.activity();
  const limited = service.requests.count({ status: 429 });
  const perForecast = service.requests.length / N;
  console.log(`\n## ${title}\n`);
  console.log('| measure | value |');
  console.log('| --- | ---: |');
  console.log(`| forecasts completed | ${completed} of ${N} |`);
  const byOperation = new Map();
  for (const request of service.requests) byOperation.set(request.operation, (byOperation.get(request.operation) ?? 0) + 1);
  const operations = [...byOperation].sort((a, b) => b[1] - a[1]).map(([operation, n]) => `${operation} ${n}`).join(', ');
  console.log(`| requests per forecast | ${perForecast.toFixed(2)} (${service.requests.length}: ${operations}) |`);
  console.log(`| most running at once (mock's record) | ${activity.maxActive} |`);
  console.log(`| starts refused by the mock | ${JSON.stringify(activity.refused)} |`);
  console.log(`| 429 answers | ${limited} |`);
  console.log(`| Redis commands per forecast | ${(commands / N).toFixed(1)} (${byCommand.slice(0, 4).map(([name, n]) => `${name} ${(n / N).toFixed(1)}`).join(', ')}) |`);
  console.log(`| mock time | ${((service.clock.now() - mock0) / 3_600_000).toFixed(2)} h |`);
  console.log(`| real time | ${seconds.toFixed(1)} s |`);
  receiverProc?.proc.kill('SIGKILL');
  for (const node of nodes) await node.quit();
  await mock.close();
  return { withReceiver, completed, perForecast, maxActive: activity.maxActive, limited };
}

async function main() {
  const topologies = (process.env.FLEET_TOPOLOGIES ?? 'server,cluster').split(',');
  const results = [];
  for (const topology of topologies) {
    const redisServer = topology === 'cluster' ? await startCluster() : await startRedis();
    const where = topology === 'cluster' ? 'a Redis Cluster of 3 masters' : 'one redis-server';
    try {
      results.push(await run(`${N} light forecasts, ${WORKERS} processes, one receiver, on ${where}`, true, redisServer));
      results.push(await run(`${N} light forecasts, ${WORKERS} processes, no receiver (the polling fallback), on ${where}`, false, redisServer));
    } finally {
      redisServer.stop();
    }
  }
  const ok = results.every((r) => r.completed === N && r.maxActive <= 50 && r.limited === 0) && results.filter((r) => r.withReceiver).every((r) => r.perForecast <= 2.2);
  console.log(`\n${ok ? 'All targets met.' : 'TARGET MISSED.'}`);
  process.exitCode = ok ? 0 : 1;
}

const role = env('FLEET_ROLE');
if (role === 'worker') await worker();
else if (role === 'receiver') await receiver();
else await main();
