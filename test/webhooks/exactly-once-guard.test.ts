// The receiver's guard around a coordinator, on its own: what each claim answer becomes, what a
// failing or silent coordinator costs (one warning, naming only the error's class), and the edges
// of the event fields it reads.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventClaim, EventCoordinator } from '../../src/core/event-coordination.js';
import { checkCoordinatorTimeout, claimKeyOf, COORDINATOR_TIMEOUT_MS, eventNotice, exactlyOnce } from '../../src/webhooks/exactly-once.js';
import type { WebhookEvent } from '../../src/webhooks/index.js';

const event = (type: string, data: unknown): WebhookEvent => ({ id: 'e1', type, createdAt: '2026-01-01T00:00:00Z', data }) as WebhookEvent;
const completed = event('forecast.completed', { taskId: 't1' });

/** A coordinator whose calls answer what `claim` says, or reject with `failure` while it is set. */
function coordinator(claim: () => Promise<EventClaim>): EventCoordinator & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    publish: async (notice) => void calls.push(`publish ${notice.id}`),
    claimEvent: (key) => (calls.push(`claim ${key}`), claim()),
    finishEvent: async (key) => void calls.push(`finish ${key}`),
    unclaimEvent: async (key) => void calls.push(`unclaim ${key}`),
    subscribe: () => () => {},
  } as EventCoordinator & { calls: string[] };
}

const logger = () => vi.fn<(message: string) => void>();

afterEach(() => vi.useRealTimers());

describe('without a coordinator', () => {
  it('takes every event as a first delivery and answers each call with a promise', async () => {
    const guard = exactlyOnce(undefined, logger());
    const begin = guard.begin(completed);
    const finish = guard.finish(completed);
    const fail = guard.fail(completed);
    expect([begin, finish, fail].every((p) => p instanceof Promise)).toBe(true);
    expect(await begin).toBe('first');
    expect(await finish).toBeUndefined();
    expect(await fail).toBeUndefined();
  });
});

describe("a coordinator's claim answers", () => {
  it.each([
    ['claimed', 'first'],
    ['running', 'running'],
    ['done', 'repeat'],
    ['toString', 'first'],
    ['something new', 'first'],
  ])('%s becomes %s', async (claim, delivery) => {
    const c = coordinator(async () => claim as EventClaim);
    const warn = logger();
    expect(await exactlyOnce(c, warn).begin(completed)).toBe(delivery);
    expect(c.calls).toEqual(['publish e1', 'claim e1']);
    expect(warn).not.toHaveBeenCalled();
  });

  it('marks done and gives back by the same key the event was claimed by', async () => {
    const c = coordinator(async () => 'claimed');
    const report = event('forecast.report.completed', { taskId: 't1', reportStatus: 'failed' });
    const guard = exactlyOnce(c, logger());
    await guard.begin(report);
    await guard.finish(report);
    await guard.fail(report);
    expect(c.calls).toEqual(['publish e1', 'claim e1:failed', 'finish e1:failed', 'unclaim e1:failed']);
  });
});

describe('a coordinator that fails', () => {
  it.each([
    ['a plain object', { name: 'Nope' }, 'an error'],
    ['an error named with a space', Object.assign(new Error('x'), { name: 'Bad Name' }), 'an error'],
    ['an error named with a trailing digit', Object.assign(new Error('x'), { name: 'Error1' }), 'an error'],
    ['an error named with a leading digit', Object.assign(new Error('x'), { name: '1Error' }), 'an error'],
    ['an error with a plain name', Object.assign(new Error('redis.internal:6379 refused'), { name: 'ConnectionError' }), 'ConnectionError'],
    ['a ValidationError, whose message is the SDK\'s own', Object.assign(new Error('createRedisCoordinator: prefix is required'), { name: 'ValidationError' }), 'ValidationError: createRedisCoordinator: prefix is required'],
  ])('rejecting with %s is named as %s, never by its message otherwise', async (_, error, reason) => {
    const warn = logger();
    const guard = exactlyOnce(coordinator(() => Promise.reject(error)), warn);
    expect(await guard.begin(completed)).toBe('first');
    expect(warn).toHaveBeenCalledTimes(1);
    const message = warn.mock.calls[0]![0];
    expect(message).toContain(`webhook coordinator failed (${reason})`);
    if (reason === 'ConnectionError') expect(message).not.toContain('redis.internal');
  });

  it('tells every failed call to warn (the receivers rate-limit it), and nothing that succeeded', async () => {
    let failing = true;
    const warn = logger();
    const c = coordinator(() => (failing ? Promise.reject(new TypeError('x')) : Promise.resolve('claimed')));
    c.publish = () => (failing ? Promise.reject(new TypeError('x')) : Promise.resolve());
    const guard = exactlyOnce(c, warn);
    await guard.begin(completed);
    expect(warn).toHaveBeenCalledTimes(2);
    failing = false;
    await guard.begin(completed);
    await guard.finish(completed);
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('that does not answer within the timeout is a first delivery, warned of as a TimeoutError, and leaves no timer behind', async () => {
    vi.useFakeTimers();
    const warn = logger();
    const guard = exactlyOnce(coordinator(() => new Promise<EventClaim>(() => {})), warn, 50);
    const begin = guard.begin(completed);
    await vi.advanceTimersByTimeAsync(49);
    expect(warn).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(await begin).toBe('first');
    expect(warn.mock.calls[0]![0]).toContain('(TimeoutError)');
    await guard.finish(completed);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('the event fields the guard reads', () => {
  it('survives an event whose data is null', () => {
    expect(eventNotice(event('forecast.completed', null))).toEqual({ id: 'e1', type: 'forecast.completed', status: 'completed', final: true });
    expect(claimKeyOf(event('forecast.report.completed', null))).toBe('e1');
  });

  it('publishes a task id only when it is a string', () => {
    expect(eventNotice(event('forecast.started', { taskId: 42 }))).not.toHaveProperty('taskId');
    expect(eventNotice(event('forecast.started', { taskId: 't9' }))).toMatchObject({ taskId: 't9' });
  });

  it("adds a report status only to a report's claim, and only a string one", () => {
    expect(claimKeyOf(event('forecast.completed', { taskId: 't1', reportStatus: 'failed' }))).toBe('e1');
    expect(claimKeyOf(event('forecast.report.completed', { taskId: 't1', reportStatus: 7 }))).toBe('e1');
    expect(claimKeyOf(event('forecast.report.completed', { taskId: 't1' }))).toBe('e1');
  });
});

describe('coordinatorTimeoutMs', () => {
  it('defaults to 2000 ms', () => {
    expect(checkCoordinatorTimeout(undefined, 'webhookMiddleware')).toBe(COORDINATOR_TIMEOUT_MS);
    expect(COORDINATOR_TIMEOUT_MS).toBe(2_000);
  });

  it('takes any positive number of ms', () => {
    expect(checkCoordinatorTimeout(0.5, 'x')).toBe(0.5);
    expect(checkCoordinatorTimeout(60_000, 'x')).toBe(60_000);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, '100' as unknown as number])('refuses %s, naming the option and where', (value) => {
    expect(() => checkCoordinatorTimeout(value, 'createWebhookHandler')).toThrow(
      new TypeError(`createWebhookHandler: coordinatorTimeoutMs must be a positive number of milliseconds, got ${String(value)}`),
    );
  });
});
