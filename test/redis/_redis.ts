// A real Redis for the tests: the Debian package's redis-server on a free loopback port in a
// temporary directory, no persistence. Missing redis-server fails the tests (never a skip).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { createClient } from 'redis';

// Reconnect quickly, so a restarted server is found again within the test's time.
const newClient = (url: string) => createClient({ url, socket: { reconnectStrategy: () => 50 } });
export type TestRedisClient = ReturnType<typeof newClient>;

export interface TestRedis {
  readonly url: string;
  /** A new connected client (one per simulated process); closed by `close()`. */
  client(): Promise<TestRedisClient>;
  /** Stops the server (an outage); `start()` brings it back on the same port, empty. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and closes every client. */
  close(): Promise<void>;
}

/** A binary of Debian's redis-server package (`redis-server`, `redis-cli`), or an error saying how to install it. */
export function findBinary(name: string): string {
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter), '/usr/bin', '/usr/sbin', '/usr/local/bin'];
  const found = dirs.map((d) => join(d, name)).find((p) => existsSync(p));
  if (!found) throw new Error(`${name} not found: the Redis tests need it (Debian/Ubuntu: apt-get install -y redis-server). They never skip.`);
  return found;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free loopback port below the kernel's ephemeral range (32768 and up on Linux), with its cluster
 * bus port (+10000) free too when `bus`. A port from the ephemeral range can be taken between the
 * check and redis-server's bind by any outgoing connection (a replica's link to its primary), which
 * once failed CI with "Address already in use".
 */
export async function freePort(taken = new Set<number>(), bus = false): Promise<number> {
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * 12_000);
    if (taken.has(port) || taken.has(port + 10_000)) continue;
    if ((await portFree(port)) && (!bus || (await portFree(port + 10_000)))) {
      taken.add(port).add(port + 10_000);
      return port;
    }
  }
}

/** Every server started, killed when the test worker exits however it ends (no stray servers after a timed-out file). */
const started = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of started) child.kill('SIGKILL');
});

/** Starts redis-server with `args`; resolves once its output matches `ready`. */
export function launchRedis(args: string[], ready = /Ready to accept connections/): Promise<ChildProcess> {
  const child = spawn(findBinary('redis-server'), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  child.once('exit', () => started.delete(child));
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${String(code)}) before it was ready:\n${output}`)));
  });
}

const launch = (port: number, dir: string) => launchRedis(['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no']);

/** SIGKILLs a server and resolves once it has exited. */
export function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Starts a redis-server; call `close()` after the tests. */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'fsdk-redis-'));
  let child: ChildProcess | undefined = await launch(port, dir);
  const clients: TestRedisClient[] = [];
  const url = `redis://127.0.0.1:${port}`;
  return {
    url,
    async client() {
      const client = newClient(url);
      client.on('error', () => undefined);
      clients.push(client);
      await client.connect();
      return client;
    },
    async stop() {
      await stopChild(child);
      child = undefined;
    },
    async start() {
      child = await launch(port, dir);
    },
    async close() {
      for (const client of clients) client.destroy();
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
