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

function findRedisServer(): string {
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter), '/usr/bin', '/usr/sbin', '/usr/local/bin'];
  const found = dirs.map((d) => join(d, 'redis-server')).find((p) => existsSync(p));
  if (!found) throw new Error('redis-server not found: the Redis tests need it (Debian/Ubuntu: apt-get install -y redis-server). They never skip.');
  return found;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function launch(bin: string, port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
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

function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Starts a redis-server; call `close()` after the tests. */
export async function startRedis(): Promise<TestRedis> {
  const bin = findRedisServer();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'fsdk-redis-'));
  let child: ChildProcess | undefined = await launch(bin, port, dir);
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
      child = await launch(bin, port, dir);
    },
    async close() {
      for (const client of clients) client.destroy();
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
