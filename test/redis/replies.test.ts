// A server on the Redis URL that answers, but not as Redis does (another service on the port, a
// proxy, a script of another version): every reply of the wrong shape counts as a failure of the
// link (local mode, one warning), never as a number to wait on or a bare TypeError. The server here
// is a stand-in that answers every command with one fixed reply: no Redis semantics are imitated.
import { describe, expect, it, vi } from 'vitest';
import { createRedisCoordinator, type NodeRedisClientLike } from '../../src/redis/index.js';
import { testClock } from './_clock.js';
import { KEY_HASH } from './_setup.js';

/** A connected client of a server that answers every command (PING too) with `reply`. */
function notRedis(reply: unknown) {
  const sent: string[] = [];
  const client: NodeRedisClientLike = {
    isReady: true,
    sendCommand: (args) => {
      sent.push(args[0]!);
      return Promise.resolve(reply);
    },
    duplicate: () => ({ connect: () => Promise.resolve(), subscribe: () => Promise.resolve(), on: () => undefined, destroy: () => undefined }),
  };
  const warnings: string[] = [];
  const clock = testClock();
  const coordinator = createRedisCoordinator(client, { prefix: 'not-redis', maxActive: 2, probeIntervalMs: 5 });
  coordinator.attach({ keyHash: () => KEY_HASH, clock, warn: (message) => warnings.push(message) });
  return { coordinator, sent, warnings, clock };
}

const WRONG: unknown[][] = ['abc', null, -5, 1.5, 1e12, Number.NaN, [1], { ok: 1 }].map((reply) => [reply]);
/** Not even an integer: wrong for every script, whatever count it returns. */
const NOT_INTEGER = WRONG.filter(([reply]) => reply !== 1e12);

describe('a reply of the wrong shape', () => {
  it.each(WRONG)('to take() (%j) turns local after one command, with one warning, instead of looping', async (reply) => {
    const { coordinator, sent, warnings } = notRedis(reply);
    await coordinator.take('requests');
    expect(sent.filter((c) => c.startsWith('EVAL'))).toHaveLength(1);
    expect(coordinator.mode).toBe('local');
    expect(warnings).toEqual([expect.stringMatching(/did not answer \(UnexpectedReplyError\); limits now hold per process/)]);
    await coordinator.close();
  });

  it.each(WRONG)('to hold() (%j) grants the hold from the local slots', async (reply) => {
    const { coordinator, sent, warnings } = notRedis(reply);
    const hold = await coordinator.hold(2);
    expect(hold.count).toBe(2);
    expect(sent.filter((c) => c.startsWith('EVAL'))).toHaveLength(1);
    expect([coordinator.mode, warnings.length]).toEqual(['local', 1]);
    await coordinator.close();
  });

  it.each([...WRONG, [[null]], [[1, 2, 3, 4, 'x']], [['a', 'b', 'c', 'd', 'e']], [[1, 2, 3, 4, 5, 6]]])('to stats() (%j) reports the local stats, never a TypeError or NaN', async (reply) => {
    const { coordinator, warnings } = notRedis(reply);
    const stats = await coordinator.stats();
    expect(stats).toEqual({ mode: 'local', requestsInWindow: 0, activeSlots: 0, activeTaskIds: [], startsWaiting: 0, receiversSeen: 0, eventsPublished: 0, eventsDeduplicated: 0 });
    expect(warnings).toHaveLength(1);
    await coordinator.close();
  });

  it.each(NOT_INTEGER)('to a claim, settle, publish or finish (%j) falls back the same way', async (reply) => {
    for (const call of [
      (c: ReturnType<typeof notRedis>['coordinator']) => c.claimEvent('evt_1'),
      (c: ReturnType<typeof notRedis>['coordinator']) => c.finishEvent('evt_1'),
      (c: ReturnType<typeof notRedis>['coordinator']) => c.settle([{ taskId: 't1' }]),
      (c: ReturnType<typeof notRedis>['coordinator']) => c.publish({ id: 'e1', type: 'forecast.completed', taskId: 't1', final: true }),
    ]) {
      const { coordinator, warnings } = notRedis(reply);
      await expect(call(coordinator)).resolves.not.toThrow();
      expect([coordinator.mode, warnings.length]).toEqual(['local', 1]);
      await coordinator.close();
    }
  });

  it('to a claim in local mode still tells a repeat: running, then done once finished', async () => {
    const { coordinator } = notRedis('abc');
    expect(await coordinator.claimEvent('evt_1')).toBe('claimed');
    expect(await coordinator.claimEvent('evt_1')).toBe('running');
    await coordinator.finishEvent('evt_1');
    expect(await coordinator.claimEvent('evt_1')).toBe('done');
    expect((await coordinator.stats()).eventsDeduplicated).toBe(1);
    await coordinator.close();
  });

  it('to PING keeps the coordinator local: only PONG brings shared mode back', async () => {
    const { coordinator, sent, warnings } = notRedis('OK');
    await coordinator.take('requests');
    await vi.waitFor(() => expect(sent.filter((c) => c === 'PING').length).toBeGreaterThanOrEqual(3));
    expect(coordinator.mode).toBe('local');
    expect(warnings).toHaveLength(1);
    await coordinator.close();
  });
});
