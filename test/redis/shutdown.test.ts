// The documented shutdown, `await coordinator.close()` then `await redis.quit()`, lets the process
// exit whenever it comes: even in the same tick as the first watch, while the subscriber connects.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useRedis } from './_setup.js';

const redis = useRedis();
const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `code` as an ES module in a child node (from the repository, so `redis` and dist/ resolve); resolves with its exit code, or 'hung'. */
function exits(code: string, ms = 8_000): Promise<number | 'hung'> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: root, stdio: 'ignore' });
    const timer = setTimeout(() => (child.kill('SIGKILL'), resolve('hung')), ms);
    child.once('exit', (status) => (clearTimeout(timer), resolve(status ?? -1)));
  });
}

const program = (url: string, between: string) => `
import { createClient } from 'redis';
import { createRedisCoordinator } from './dist/redis/index.js';
const redis = await createClient({ url: ${JSON.stringify(url)} }).on('error', () => {}).connect();
const coordinator = createRedisCoordinator(redis, { prefix: 'shutdown' });
coordinator.attach({ keyHash: () => 'a'.repeat(64), clock: { now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) } });
${between}
await coordinator.close();
await redis.quit();
`;

describe('shutdown', () => {
  it('exits after close() in the same tick as the first watch (the subscriber still connecting), five times running', async () => {
    for (let i = 0; i < 5; i++) expect(await exits(program(redis.url, "coordinator.watch(['t1'], () => {});"))).toBe(0);
  });

  it('exits after close() right after a start was bound', async () => {
    for (let i = 0; i < 3; i++) expect(await exits(program(redis.url, "await (await coordinator.hold(1)).bind(['t1']);"))).toBe(0);
  });
});
